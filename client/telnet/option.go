package telnet

// RFC 1143's "Q method": each option has two independent states, one for
// our side (WILL/WONT sent by us, DO/DONT by the peer) and one for the
// peer's side (WILL/WONT from the peer, DO/DONT from us). The WANT states
// remember a request of ours that has not been answered, so an answer is
// never mistaken for a new request: that is what stops two implementations
// from negotiating in a loop, and why a peer that repeats a request
// gets no second answer once the option is settled.

type qState uint8

const (
	qNo qState = iota
	qYes
	qWantNo
	qWantYes
)

// side is the negotiation state of one option on one side.
type side struct {
	state    qState
	opposite bool // the queue bit: the opposite request is queued
}

// negotiation is what to send in answer: nothing, or the positive or
// negative verb of the side (DO/DONT for the peer's side, WILL/WONT for
// ours).
type negotiation uint8

const (
	sendNothing negotiation = iota
	sendYes
	sendNo
)

// recvYes handles WILL (peer's side) or DO (our side): the peer asks for,
// or agrees to, enabling. agree says whether we accept the option. It
// returns what to send and whether the option became enabled.
func (s *side) recvYes(agree bool) (reply negotiation, enabled bool) {
	switch s.state {
	case qNo:
		if agree {
			s.state = qYes
			return sendYes, true
		}
		return sendNo, false
	case qYes:
		return sendNothing, false // already on: not a new request (RFC 1143 loop rule)
	case qWantNo:
		// An error by the peer: it answered our disable with enable.
		if s.opposite {
			s.state, s.opposite = qYes, false
			return sendNothing, true
		}
		s.state = qNo
		return sendNothing, false
	default: // qWantYes
		if s.opposite {
			s.state, s.opposite = qWantNo, false
			return sendNo, false
		}
		s.state = qYes
		return sendNothing, true
	}
}

// recvNo handles WONT (peer's side) or DONT (our side). It returns what
// to send and whether the option became disabled.
func (s *side) recvNo() (reply negotiation, disabled bool) {
	switch s.state {
	case qNo:
		return sendNothing, false
	case qYes:
		s.state = qNo
		return sendNo, true
	case qWantNo:
		if s.opposite {
			s.state, s.opposite = qWantYes, false
			return sendYes, false
		}
		s.state = qNo
		return sendNothing, false
	default: // qWantYes
		s.state, s.opposite = qNo, false
		return sendNothing, false
	}
}

// ask asks for the option to be enabled (want) or disabled on this side
// and returns what to send.
func (s *side) ask(want bool) negotiation {
	switch {
	case want && s.state == qNo:
		s.state = qWantYes
		return sendYes
	case !want && s.state == qYes:
		s.state = qWantNo
		return sendNo
	case s.state == qWantNo:
		s.opposite = want
	case s.state == qWantYes:
		s.opposite = !want
	}
	return sendNothing
}

// enabled reports whether the option is on.
func (s *side) enabled() bool { return s.state == qYes }
