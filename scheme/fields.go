package scheme

// A Part is one named part of a view, in the order a machine-readable
// listing shows it (the command line's scheme_data, CLI.md). Each view
// lists its own parts with its Parts method, so that no consumer
// switches on the view's type.
type Part struct {
	Name string
	// Value is one of: nil (the part is absent: JSON null), a string, a
	// []string, a Number, a [][]string (pairs such as Prospero fields),
	// a []WAISField, or a []Part (a nested object).
	Value any
}

// Number is a decimal number as written, for a JSON number (an NNTP
// article number); leading zeros are dropped when it is shown.
type Number string

// opt returns v, or nil when the part is absent.
func opt(v string, ok bool) any {
	if !ok {
		return nil
	}
	return v
}

// list returns l, never nil (an empty list, not an absent one).
func list(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

// Parts lists cwd, name, type, user and password.
func (f *FTP) Parts() []Part {
	return []Part{{"cwd", list(f.CWD)}, {"name", f.Name}, {"type", opt(f.Type, f.Type != "")},
		{"user", opt(f.User, f.HasUser)}, {"password", opt(f.Password, f.HasPassword)}}
}

// Parts lists path (null for a URL without one) and search.
func (h *HTTP) Parts() []Part {
	parts := []Part{{"path", opt(h.Path, !h.NoPath)}, {"search", opt(h.Search, h.HasSearch)}}
	if h.HasUser {
		parts = append(parts, Part{"user", h.User}, Part{"password", opt(h.Password, h.HasPassword)})
	}
	return parts
}

// Parts lists type, selector, search, plus and plus_request (the
// Gopher+ string classified, null when there is none or it is none of
// the forms).
func (g *Gopher) Parts() []Part {
	var req any
	if p, err := g.PlusRequest(); err == nil && p.Kind != PlusNone {
		view := p.Kind == PlusView
		var attrs, values any
		if p.Attributes != nil {
			attrs = p.Attributes
		}
		if p.Form {
			values = list(p.Values)
		}
		req = []Part{{"kind", p.Kind.String()}, {"view", opt(p.View, view)}, {"language", opt(p.Language, view)},
			{"attributes", attrs}, {"ask_values", values}}
	}
	return []Part{{"type", string([]byte{g.Type})}, {"selector", g.Selector}, {"search", opt(g.Search, g.HasSearch)},
		{"plus", opt(g.Plus, g.HasPlus)}, {"plus_request", req}}
}

// Parts lists address, local_part and domain.
func (m *Mailto) Parts() []Part {
	local, domain := m.Split()
	return []Part{{"address", m.Address}, {"local_part", local}, {"domain", domain}}
}

// Parts lists kind, group and message_id (and host, port for RFC 5538's
// form).
func (n *News) Parts() []Part {
	f := []Part{{"kind", n.Kind()}, {"group", opt(n.Group, !n.All && n.MessageID == "")}, {"message_id", opt(n.MessageID, n.MessageID != "")}}
	if n.Host != "" {
		f = append(f, Part{"host", n.Host}, Part{"port", opt(n.Port, n.Port != "")})
	}
	return f
}

// Parts lists group and article (a number, null when absent).
func (n *NNTP) Parts() []Part {
	var a any
	if n.Article != "" {
		a = Number(n.Article)
	}
	return []Part{{"group", n.Group}, {"article", a}}
}

// Parts lists user and password.
func (t *Telnet) Parts() []Part {
	return []Part{{"user", opt(t.User, t.HasUser)}, {"password", opt(t.Password, t.HasPassword)}}
}

// Parts lists database, search, wtype, wpath and wpath_fields.
func (w *WAIS) Parts() []Part {
	var fields any
	if w.Fields != nil {
		fields = w.Fields
	}
	return []Part{{"database", w.Database}, {"search", opt(w.Search, w.HasSearch)}, {"wtype", opt(w.WType, w.HasDocument)},
		{"wpath", opt(w.WPath, w.HasDocument)}, {"wpath_fields", fields}}
}

// Parts lists host, path and local_path.
func (f *File) Parts() []Part {
	local, err := f.LocalPath()
	return []Part{{"host", f.Host}, {"path", f.Path}, {"local_path", opt(local, err == nil)}}
}

// Parts lists hsoname, fields, version and attributes.
func (p *Prospero) Parts() []Part {
	pairs := [][]string{}
	for _, f := range p.Fields {
		pairs = append(pairs, []string{f.Name, f.Value})
	}
	return []Part{{"hsoname", p.HSOName}, {"fields", pairs}, {"version", opt(p.Version, p.HasVersion)}, {"attributes", list(p.Attributes)}}
}

// Parts lists id.
func (m *MID) Parts() []Part { return []Part{{"id", m.ID}} }

// Parts lists id.
func (c *CID) Parts() []Part { return []Part{{"id", c.ID}} }

// Parts lists name.
func (n *URN) Parts() []Part { return []Part{{"name", n.Name}} }

// Parts lists cell and path.
func (a *AFS) Parts() []Part { return []Part{{"cell", a.Cell}, {"path", a.Path}} }
