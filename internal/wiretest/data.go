package wiretest

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"strings"
)

// Data is an FTP data connection of a script: [EPSV] or [PASV] opens its
// listener and sends the reply that announces it, [OnData] accepts the
// client's connection and plays steps on it.
type Data struct {
	// Port is the port to listen on; 0 picks a free one. A test of which
	// data ports a client accepts sets it (6000, say).
	Port int

	ln   net.Listener
	sess *Session
}

func (d *Data) listen(s *Session) (int, error) {
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", d.Port))
	if err != nil {
		return 0, err
	}
	s.srv.track(ln)
	d.ln = ln
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// EPSV opens d's listener and sends the RFC 2428 reply
// "229 Entering Extended Passive Mode (|||port|)".
func EPSV(d *Data) Step {
	return func(s *Session) error {
		port, err := d.listen(s)
		if err != nil {
			return err
		}
		return Sendf("229 Entering Extended Passive Mode (|||%d|)", port)(s)
	}
}

// PASV opens d's listener on 127.0.0.1 and sends the RFC 959 reply
// "227 Entering Passive Mode (h1,h2,h3,h4,p1,p2)" announcing the address
// ip (which need not be 127.0.0.1: misconfigured servers announce private
// or unspecified addresses) and the listener's port.
func PASV(d *Data, ip string) Step {
	return func(s *Session) error {
		port, err := d.listen(s)
		if err != nil {
			return err
		}
		h := strings.ReplaceAll(ip, ".", ",")
		return Sendf("227 Entering Passive Mode (%s,%d,%d).", h, port>>8, port&0xff)(s)
	}
}

// OnData accepts the client's data connection on d (once; later OnData
// steps for the same d reuse it) and plays steps on it.
func OnData(d *Data, steps ...Step) Step {
	return func(s *Session) error {
		if d.ln == nil {
			return errors.New("OnData before EPSV/PASV")
		}
		if d.sess == nil {
			c, err := accept(d.ln, s.srv.quit)
			d.ln.Close()
			if err != nil {
				return fmt.Errorf("data connection: %w", err)
			}
			s.srv.track(c)
			d.sess = &Session{Conn: c, r: bufio.NewReader(c), srv: s.srv}
		}
		for i, step := range steps {
			if err := step(d.sess); err != nil {
				return fmt.Errorf("data step %d: %w", i+1, err)
			}
		}
		return nil
	}
}
