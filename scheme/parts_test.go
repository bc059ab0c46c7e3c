package scheme

import (
	"strconv"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/schemedata"
)

// render writes parts in a compact JSON-like form, to compare listings.
func render(b *strings.Builder, parts []part, object bool) {
	for i, p := range parts {
		if i > 0 {
			b.WriteByte(',')
		}
		if object {
			b.WriteString(p.Name + ":")
		}
		switch v := p.Value; v.Kind {
		case schemedata.KindNull:
			b.WriteString("null")
		case schemedata.KindString:
			b.WriteString(strconv.Quote(v.Str))
		case schemedata.KindNumber:
			b.WriteString("#" + v.Str)
		case schemedata.KindStrings:
			b.WriteString("[" + strings.Join(v.Strings, "|") + "]")
		case schemedata.KindArray:
			b.WriteByte('[')
			render(b, v.Sub, false)
			b.WriteByte(']')
		case schemedata.KindObject:
			b.WriteByte('{')
			render(b, v.Sub, true)
			b.WriteByte('}')
		default:
			b.WriteString("?kind" + strconv.Itoa(int(v.Kind)))
		}
	}
}

// listing renders the parts of v.
func listing(v View) string { return listingOf(v.appendParts(nil)) }

// listingOf renders parts.
func listingOf(parts []part) string {
	var b strings.Builder
	render(&b, parts, true)
	return b.String()
}

// partsCases: a URL, the mode it is read in, its listing, whether
// listing its view may allocate (only the rarer nested values do), and
// whether reading its view allocates (a view on the heap, which the
// common schemes avoid, or decoded strings and lists).
var partsCases = []struct {
	in         string
	mode       urlkit.Mode
	want       string
	allocs     bool
	viewAllocs bool
}{
	{"http://h/p?q", urlkit.RFC1738, `path:"p",search:"q"`, false, false},
	{"https://h", urlkit.RFC1738, `path:null,search:null`, false, false},
	{"http://u:p%40w@h/", urlkit.RFC3986, `path:"",search:null,user:"u",password:"p@w"`, false, true},
	{"http://u:p@h/", urlkit.RFC3986, `path:"",search:null,user:"u",password:"p"`, false, false},
	{"ftp://u@h/a%2Fb/c/f;type=d", urlkit.RFC1738, `cwd:[a/b|c],name:"f",type:"d",user:"u",password:null`, false, true},
	{"ftp://u@h/f;type=d", urlkit.RFC1738, `cwd:[],name:"f",type:"d",user:"u",password:null`, false, false},
	{"ftp://h/", urlkit.RFC1738, `cwd:[],name:"",type:null,user:null,password:null`, false, false},
	{"file:///etc/motd", urlkit.RFC1738, `host:"",path:"/etc/motd",local_path:"/etc/motd"`, false, false},
	{"file://elsewhere/etc/motd", urlkit.RFC1738, `host:"elsewhere",path:"/etc/motd",local_path:null`, false, false},
	{"mailto:joe@example.com", urlkit.RFC1738, `address:"joe@example.com",local_part:"joe",domain:"example.com"`, false, false},
	{"mailto:joe@example.com?subject=hi", urlkit.RFC3986, `address:"joe@example.com",local_part:"joe",domain:"example.com"`, false, true},
	{"gopher://h/1sel%09find", urlkit.RFC1738, `type:"1",selector:"sel",search:"find",plus:null,plus_request:null`, false, false},
	{"gopher://h/0sel%09%09!+ABSTRACT", urlkit.RFC1738,
		`type:"0",selector:"sel",search:"",plus:"!+ABSTRACT",plus_request:{kind:"item_attributes",view:null,language:null,attributes:[+ABSTRACT],ask_values:null}`, true, false},
	{"nntp://h/comp.lang/007", urlkit.RFC1738, `group:"comp.lang",article:#007`, false, true},
	{"news:*", urlkit.RFC1738, `kind:"all",group:null,message_id:null`, false, true},
	{"telnet://u:p@h/", urlkit.RFC1738, `user:"u",password:"p"`, false, true},
	{"wais://h/db/t/1=a;2=b;", urlkit.RFC1630, `database:"db",search:null,wtype:"t",wpath:"1=a;2=b;",wpath_fields:[[#1,"a"],[#2,"b"]]`, true, false},
	{"prospero://h/p%00v;a=1", urlkit.RFC1738, `hsoname:"p",fields:[[a|1]],version:"v",attributes:[]`, true, true},
	{"afs://cell/p", urlkit.Lenient, `cell:"cell",path:"/p"`, false, true},
}

func TestAppendParts(t *testing.T) {
	for _, c := range partsCases {
		u, _, err := urlkit.ParseMode(c.in, c.mode)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		v, err := Parse(&u, c.mode)
		if err != nil || v == nil {
			t.Fatalf("%s: view %v, %v", c.in, v, err)
		}
		prefix := []part{kv("before", str("x"))}
		parts := v.appendParts(prefix)
		if len(parts) < 1 || parts[0].Name != "before" {
			t.Errorf("%s: AppendParts did not keep what dst held", c.in)
			continue
		}
		if got := listingOf(parts[1:]); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.in, got, c.want)
		}
		// The package's AppendParts lists the same, after what dst held.
		byURL, ok, err := appendParts(prefix[:1], &u, c.mode)
		if !ok || err != nil || len(byURL) != len(parts) || byURL[0].Name != "before" || listingOf(byURL[1:]) != c.want {
			t.Errorf("%s: appendParts(u) = %s, %v, %v", c.in, listingOf(byURL), ok, err)
		}
		if c.allocs {
			continue
		}
		// A reused slice: listing a common view allocates nothing, and
		// for the common schemes neither does their view.
		if n := testing.AllocsPerRun(100, func() { parts = v.appendParts(parts[:0]) }); n != 0 {
			t.Errorf("%s: View.AppendParts allocates %v times", c.in, n)
		}
		if !c.viewAllocs {
			n := testing.AllocsPerRun(100, func() { parts, _, _ = appendParts(parts[:0], &u, c.mode) })
			if n != 0 {
				t.Errorf("%s: appendParts(u) allocates %v times", c.in, n)
			}
		}
	}
}

// TestFTPPartsAllocs: the directories of an FTP URL cost two allocations
// (the CWD list and its spans, each made at its size), however many
// there are.
func TestFTPPartsAllocs(t *testing.T) {
	for _, s := range []string{"ftp://h/pub/f", "ftp://h/pub/a/b/c/d/e/f;type=i"} {
		u, _, err := urlkit.ParseMode(s, urlkit.RFC1738)
		if err != nil {
			t.Fatal(err)
		}
		var parts []part
		if n := testing.AllocsPerRun(100, func() { parts, _, _ = appendParts(parts[:0], &u, urlkit.RFC1738) }); n > 2 {
			t.Errorf("%s: AppendParts allocates %v times", s, n)
		}
	}
}
