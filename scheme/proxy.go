package scheme

// proxy is the plan of a retrieval through an HTTP proxy (RFC 1630,
// HTTP): the whole URL, of any retrieval scheme, goes on the request
// line, as net/http writes it for the access layer's gateways.
func (p *planner) proxy(v View) {
	p.connect(p.opts.Proxy)
	p.comment("through the HTTP proxy %s: the whole URL goes on the request line, whatever its scheme (RFC 1630, HTTP)", p.opts.Proxy)
	if h, ok := v.(*HTTP); ok && h.Secure {
		hp := addr(h.Host, h.Port, "https")
		p.line("CONNECT " + hp + " HTTP/1.1\r\n")
		p.send("Host", hp, "Host: "+hp+"\r\n")
		p.send("User-Agent", "Go-http-client/1.1", "User-Agent: Go-http-client/1.1\r\n")
		p.send("", "", "\r\n")
		p.comment("the proxy opens a tunnel to %s; the client then makes a TLS connection through it and sends the request as to the server itself:", hp)
		p.httpRequest(h.RequestURI(), hostHeader(h), h)
		p.fragmentNote()
		return
	}
	target := *p.u
	target.HasFragment, target.Fragment = false, ""
	host := target.Host
	if target.HasPort && target.Port != "" {
		host += ":" + target.Port
	}
	line := target.String()
	if target.HasPassword {
		line = target.Redacted() // the password is not shown
	}
	p.httpRequest(line, host, nil)
	p.fragmentNote()
}
