package scheme

import (
	"strconv"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
)

// render writes parts in a compact JSON-like form, to compare listings.
func render(b *strings.Builder, parts []Part, object bool) {
	for i, p := range parts {
		if i > 0 {
			b.WriteByte(',')
		}
		if object {
			b.WriteString(p.Name + ":")
		}
		switch v := p.Value; v.Kind {
		case KindNull:
			b.WriteString("null")
		case KindString:
			b.WriteString(strconv.Quote(v.Str))
		case KindNumber:
			b.WriteString("#" + v.Str)
		case KindStrings:
			b.WriteString("[" + strings.Join(v.Strings, "|") + "]")
		case KindArray:
			b.WriteByte('[')
			render(b, v.Sub, false)
			b.WriteByte(']')
		case KindObject:
			b.WriteByte('{')
			render(b, v.Sub, true)
			b.WriteByte('}')
		default:
			b.WriteString("?kind" + strconv.Itoa(int(v.Kind)))
		}
	}
}

// listing renders the parts of v.
func listing(v View) string {
	var b strings.Builder
	render(&b, v.AppendParts(nil), true)
	return b.String()
}

// partsCases: a URL, the mode it is read in, its listing, and whether
// listing it may allocate (only the rarer nested values do).
var partsCases = []struct {
	in     string
	mode   urlkit.Mode
	want   string
	allocs bool
}{
	{"http://h/p?q", urlkit.RFC1738, `path:"p",search:"q"`, false},
	{"https://h", urlkit.RFC1738, `path:null,search:null`, false},
	{"http://u:p%40w@h/", urlkit.RFC3986, `path:"",search:null,user:"u",password:"p@w"`, false},
	{"ftp://u@h/a%2Fb/c/f;type=d", urlkit.RFC1738, `cwd:[a/b|c],name:"f",type:"d",user:"u",password:null`, false},
	{"ftp://h/", urlkit.RFC1738, `cwd:[],name:"",type:null,user:null,password:null`, false},
	{"file:///etc/motd", urlkit.RFC1738, `host:"",path:"/etc/motd",local_path:"/etc/motd"`, false},
	{"file://elsewhere/etc/motd", urlkit.RFC1738, `host:"elsewhere",path:"/etc/motd",local_path:null`, false},
	{"mailto:joe@example.com", urlkit.RFC1738, `address:"joe@example.com",local_part:"joe",domain:"example.com"`, false},
	{"gopher://h/1sel%09find", urlkit.RFC1738, `type:"1",selector:"sel",search:"find",plus:null,plus_request:null`, false},
	{"gopher://h/0sel%09%09!+ABSTRACT", urlkit.RFC1738,
		`type:"0",selector:"sel",search:"",plus:"!+ABSTRACT",plus_request:{kind:"item_attributes",view:null,language:null,attributes:[+ABSTRACT],ask_values:null}`, true},
	{"nntp://h/comp.lang/007", urlkit.RFC1738, `group:"comp.lang",article:#007`, false},
	{"news:*", urlkit.RFC1738, `kind:"all",group:null,message_id:null`, false},
	{"telnet://u:p@h/", urlkit.RFC1738, `user:"u",password:"p"`, false},
	{"wais://h/db/t/1=a;2=b;", urlkit.RFC1630, `database:"db",search:null,wtype:"t",wpath:"1=a;2=b;",wpath_fields:[[#1,"a"],[#2,"b"]]`, true},
	{"prospero://h/p%00v;a=1", urlkit.RFC1738, `hsoname:"p",fields:[[a|1]],version:"v",attributes:[]`, true},
	{"afs://cell/p", urlkit.Lenient, `cell:"cell",path:"/p"`, false},
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
		prefix := []Part{{"before", str("x")}}
		parts := v.AppendParts(prefix)
		if len(parts) < 1 || parts[0].Name != "before" {
			t.Errorf("%s: AppendParts did not keep what dst held", c.in)
			continue
		}
		var b strings.Builder
		render(&b, parts[1:], true)
		if b.String() != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.in, b.String(), c.want)
		}
		if c.allocs {
			continue
		}
		// A reused slice: listing a common view allocates nothing.
		if n := testing.AllocsPerRun(100, func() { parts = v.AppendParts(parts[:0]) }); n != 0 {
			t.Errorf("%s: AppendParts allocates %v times", c.in, n)
		}
	}
}
