package urlkit

import (
	"net/url"
	"reflect"
	"testing"
)

func TestQueryRoundTrip(t *testing.T) {
	// Text that a decode-then-encode would change survives untouched.
	for _, raw := range []string{"", "a=1&b=2", "a=%7e&b=x+y", "&&a", "k", "k=", "=v", "a=1;b=2", "%zz=%", "a=b=c"} {
		for _, plus := range []bool{false, true} {
			q := ParseQuery(raw, QuerySyntax{PlusAsSpace: plus})
			if got := q.Encode(); got != raw {
				t.Errorf("ParseQuery(%q).Encode() = %q", raw, got)
			}
		}
	}
}

func TestQueryPlus(t *testing.T) {
	// RFC 1630: "+" in a query string is a space; an explicit choice.
	q := ParseQuery("q=a+b%2Bc", QuerySyntax{PlusAsSpace: true})
	if v, _ := q.Get("q"); v != "a b+c" {
		t.Errorf("plus as space: %q", v)
	}
	q = ParseQuery("q=a+b%2Bc", QuerySyntax{})
	if v, _ := q.Get("q"); v != "a+b+c" {
		t.Errorf("plus kept: %q", v)
	}
	q.Set("q", "x y+z")
	if got := q.Encode(); got != "q=x%20y%2Bz" {
		t.Errorf("encoded without PlusAsSpace: %q", got)
	}
	q = ParseQuery("", QuerySyntax{PlusAsSpace: true})
	q.Add("q", "x y+z&=#")
	if got := q.Encode(); got != "q=x+y%2Bz%26%3D%23" {
		t.Errorf("encoded with PlusAsSpace: %q", got)
	}
}

func TestQueryEdits(t *testing.T) {
	q := ParseQuery("b=2&a=1&b=3&flag&c=%41", QuerySyntax{})
	if v, ok := q.Get("c"); v != "A" || !ok {
		t.Errorf("Get c = %q %v", v, ok)
	}
	if v, ok := q.Get("flag"); v != "" || !ok {
		t.Errorf("Get flag = %q %v", v, ok)
	}
	if _, ok := q.Get("nope"); ok {
		t.Error("Get of a missing key reports it present")
	}
	if got := values(&q, "b"); !reflect.DeepEqual(got, []string{"2", "3"}) {
		t.Errorf("values of b = %q", got)
	}
	q.Set("b", "9")
	if got := q.Encode(); got != "b=9&a=1&flag&c=%41" {
		t.Errorf("after Set: %q", got)
	}
	q.Add("d", "4")
	q.Del("a")
	if got := q.Encode(); got != "b=9&flag&c=%41&d=4" {
		t.Errorf("after Add, Del: %q", got)
	}
	q.Set("new", "v")
	if got := q.Encode(); got != "b=9&flag&c=%41&d=4&new=v" {
		t.Errorf("Set of a new key: %q", got)
	}
}

func TestQuerySeparator(t *testing.T) {
	q := ParseQuery("a=1;b=x&y", QuerySyntax{Separator: ';'})
	if v, _ := q.Get("b"); v != "x&y" {
		t.Errorf("b = %q", v)
	}
	q.Set("c", "1;2")
	if got := q.Encode(); got != "a=1;b=x&y;c=1%3B2" {
		t.Errorf("Encode = %q", got)
	}
}

// values returns the values of every pair with the key, in order.
func values(q *Query, key string) []string {
	var vs []string
	for _, p := range q.Pairs() {
		if p.Key == key && (p.HasValue || p.Key != "") {
			vs = append(vs, p.Value)
		}
	}
	return vs
}

func TestQueryPairs(t *testing.T) {
	q := ParseQuery("b=2&a=1&b=3&&x", QuerySyntax{})
	want := []QueryPair{{Key: "b", Value: "2", HasValue: true}, {Key: "a", Value: "1", HasValue: true}, {Key: "b", Value: "3", HasValue: true}, {}, {Key: "x"}}
	got := q.Pairs()
	for i := range got {
		got[i].raw = ""
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Pairs = %+v", got)
	}
	q.DeleteFunc(func(p QueryPair) bool { return p.Key == "" && !p.HasValue })
	if got := q.Encode(); got != "b=2&a=1&b=3&x" {
		t.Errorf("after deleting the empty pair: %q", got)
	}
}

func TestQueryEscape(t *testing.T) {
	for _, s := range []string{"a b+c&d=e/f?g", "caf\xc3\xa9", "100%", ""} {
		e := QueryEscape(s)
		back, err := QueryUnescape(e)
		if err != nil || back != s {
			t.Errorf("QueryUnescape(QueryEscape(%q)) = %q, %v", s, back, err)
		}
		// net/url reads it the same way.
		if nb, err := url.QueryUnescape(e); err != nil || nb != s {
			t.Errorf("url.QueryUnescape(%q) = %q, %v", e, nb, err)
		}
	}
	if got := PathEscape("a b/c;d"); got != "a%20b%2Fc%3Bd" {
		t.Errorf("PathEscape = %q", got)
	}
}

// FuzzQuery: a parsed query encodes back to its text, its pairs survive
// Encode and a second parse.
func FuzzQuery(f *testing.F) {
	for _, s := range []string{"a=1&b=2", "a=%7e&b=x+y", "&&a", "k", "=v", "%zz=%", "a=b=c", "q=%E2%82%AC"} {
		f.Add(s, byte(0), false, "k", "v w")
	}
	f.Add("a=1;b=2", byte(';'), true, "a", "1;2+3")
	f.Fuzz(func(t *testing.T, raw string, sep byte, plus bool, key, value string) {
		syn := QuerySyntax{Separator: sep, PlusAsSpace: plus}
		q := ParseQuery(raw, syn)
		if got := q.Encode(); got != raw {
			t.Fatalf("round trip of %q: %q", raw, got)
		}
		q.Set(key, value)
		q.Add(value, key)
		enc := q.Encode()
		r := ParseQuery(enc, syn)
		if v, ok := r.Get(key); !ok || v != value && key != value {
			t.Fatalf("after Set(%q, %q): %q gives %q %v", key, value, enc, v, ok)
		}
		if got := values(&r, value); len(got) == 0 || got[len(got)-1] != key {
			t.Fatalf("after Add(%q, %q): %q gives %q", value, key, enc, got)
		}
		if got := r.Encode(); got != enc {
			t.Fatalf("second round trip of %q: %q", enc, got)
		}
	})
}
