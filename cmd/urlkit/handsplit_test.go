package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// urlFields are the fields of urlkit.URL and fetch.Error that hold a URL
// or a part of one: a strings function applied to them is a hand split.
var urlFields = map[string]bool{
	"URL": true, "Path": true, "Host": true, "Port": true, "RawQuery": true,
	"Query": true, "Fragment": true, "Opaque": true, "Scheme": true, "Password": true,
}

// splitFuncs are the strings functions that take a string apart.
var splitFuncs = map[string]bool{
	"Cut": true, "CutPrefix": true, "CutSuffix": true, "Index": true, "IndexByte": true,
	"IndexAny": true, "LastIndex": true, "LastIndexByte": true, "LastIndexAny": true,
	"Split": true, "SplitN": true, "SplitAfter": true, "TrimPrefix": true, "TrimSuffix": true,
	"HasPrefix": true, "HasSuffix": true, "Fields": true,
}

// TestNoHandSplitURLs: no file of the command parses, escapes or splits
// a URL by hand (issue 37): the URL comes parsed (urlkit, fetch.ParseURL),
// its parts from the views of package scheme (an ftp ";type=" is
// scheme.FTP's Type and Name), an error's scheme and port from the typed
// error, which schemes log in from the registry. Found by reading the
// code: a ";type=" in a string, a strings function cutting at "://" or
// applied to a URL field (u.Path, fe.URL, ...) or to a variable named
// for a URL, and a parse of a URL field or of a string built by "+".
func TestNoHandSplitURLs(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	read := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0) // no comments: prose may name ";type="
		if err != nil {
			t.Fatal(err)
		}
		read++
		for _, p := range handSplits(f) {
			t.Errorf("%s: %s", fset.Position(p.pos), p.why)
		}
	}
	if read < 10 {
		t.Fatalf("read %d files of the command: not its directory?", read)
	}
}

type handSplit struct {
	pos token.Pos
	why string
}

// handSplits returns the hand splits of URLs in f (see TestNoHandSplitURLs).
func handSplits(f *ast.File) []handSplit {
	var found []handSplit
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			// A short word, not the prose of a help text.
			if s, err := strconv.Unquote(n.Value); err == nil && n.Kind == token.STRING && len(s) < 20 && !strings.Contains(s, " ") && strings.Contains(strings.ToLower(s), ";type") {
				found = append(found, handSplit{n.Pos(), `";type=" in the code: an ftp URL's type is scheme.FTP's Type`})
			}
		case *ast.CallExpr:
			pkg, fn := callee(n)
			switch {
			case pkg == "strings" && splitFuncs[fn]:
				for _, a := range n.Args {
					if lit, ok := a.(*ast.BasicLit); ok && strings.Contains(lit.Value, "://") {
						found = append(found, handSplit{n.Pos(), "strings." + fn + ` at "://": parse the URL (urlkit, fetch.ParseURL)`})
					}
				}
				if len(n.Args) > 0 && urlValued(n.Args[0]) {
					found = append(found, handSplit{n.Pos(), "strings." + fn + " of a URL or a URL's part: read the parsed URL, its scheme view or the typed error"})
				}
			case pkg == "urlkit" && strings.HasPrefix(fn, "Parse") || pkg == "fetch" && fn == "ParseURL":
				if len(n.Args) > 0 && (hasURLField(n.Args[0]) || isConcat(n.Args[0])) {
					found = append(found, handSplit{n.Pos(), pkg + "." + fn + " of a URL field or of a string built by hand: the URL is parsed once, then its values are used"})
				}
			}
		}
		return true
	})
	return found
}

// callee returns the package and name of a call pkg.Fn(...).
func callee(c *ast.CallExpr) (pkg, fn string) {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return "", ""
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return "", ""
	}
	return id.Name, sel.Sel.Name
}

// urlValued reports whether e is, or is built from, a URL field or a
// variable named for a URL (rawURL, url, u.String()).
func urlValued(e ast.Expr) bool {
	if hasURLField(e) {
		return true
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			found = found || urlName(n.Name)
		case *ast.CallExpr:
			// u.String(), u.Redacted(): a URL's text; the function's own
			// name (RedactURL) says nothing of its result.
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && (x.Name == "u" || x.Name == "v" || urlName(x.Name)) && (sel.Sel.Name == "String" || sel.Sel.Name == "Redacted") {
					found = true
				}
			}
			for _, a := range n.Args {
				found = found || urlValued(a)
			}
			return false
		}
		return !found
	})
	return found
}

// urlName reports whether a variable's name says it holds a URL.
func urlName(name string) bool {
	return strings.Contains(strings.ToLower(name), "url")
}

// hasURLField reports whether e mentions a field of urlFields.
func hasURLField(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && urlFields[sel.Sel.Name] {
			found = true
		}
		return !found
	})
	return found
}

// isConcat reports whether e is a string built with "+".
func isConcat(e ast.Expr) bool {
	b, ok := e.(*ast.BinaryExpr)
	return ok && b.Op == token.ADD
}

// TestHandSplitsFound: the reader of TestNoHandSplitURLs finds each of
// the hand splits that the command used to hold (issue 37).
func TestHandSplitsFound(t *testing.T) {
	for _, src := range []string{
		`p, _, _ = strings.Cut(p, ";type=")`,
		`scheme, _, _ := strings.Cut(strings.ToLower(fe.URL), ":")`,
		`u, _, perr := urlkit.ParseMode(fe.URL, urlkit.RFC3986)`,
		`p, _, _ = strings.Cut(u.Path, ";")`,
		`i := strings.Index(raw, "://")`,
		`host, _, _ := strings.Cut(rawURL, "/")`,
		`v, _, err := urlkit.ParseMode(u.String()+"%09%09!", urlkit.RFC3986)`,
	} {
		f, err := parser.ParseFile(token.NewFileSet(), "x.go", "package main\nfunc f() {\n"+src+"\n}\n", 0)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if len(handSplits(f)) == 0 {
			t.Errorf("not found: %s", src)
		}
	}
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", "package main\nfunc f() {\nuser, pass, _ := strings.Cut(o.news.user, \":\")\n}\n", 0)
	if err != nil {
		t.Fatal(err)
	}
	if hs := handSplits(f); len(hs) != 0 {
		t.Errorf("USER:PASSWORD of --user is no URL: %v", hs)
	}
}
