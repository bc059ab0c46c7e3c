package whatwg

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// nodeScript reads JSON strings, one a line, and writes for each the
// href Node's URL (ada in Node 18 and later) makes of it, or null.
const nodeScript = `
const rl = require('readline').createInterface({input: process.stdin});
const out = [];
rl.on('line', l => {
  let r = null;
  try { r = new URL(JSON.parse(l)).href; } catch (e) {}
  out.push(JSON.stringify(r));
});
rl.on('close', () => process.stdout.write(out.join('\n') + '\n'));
`

// nodeHrefs runs inputs through Node's URL.
func nodeHrefs(t *testing.T, node string, inputs []string) []*string {
	var in bytes.Buffer
	for _, s := range inputs {
		b, _ := json.Marshal(s)
		in.Write(b)
		in.WriteByte('\n')
	}
	cmd := exec.Command(node, "-e", nodeScript)
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var hrefs []*string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var h *string
		if err := json.Unmarshal(sc.Bytes(), &h); err != nil {
			t.Fatal(err)
		}
		hrefs = append(hrefs, h)
	}
	if len(hrefs) != len(inputs) {
		t.Fatalf("node gave %d results for %d inputs", len(hrefs), len(inputs))
	}
	return hrefs
}

// TestNodeURL compares the parser with Node's URL (ada) on the bench URL
// sets and on inputs generated from urltestdata.json's; it skips when
// node is not installed.
func TestNodeURL(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	var inputs []string
	for _, f := range []string{"isaacs_files.txt", "kasztp.txt", "node_files.txt", "userbait.txt"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "bench", "urls", f))
		if err != nil {
			t.Skipf("bench data: %v", err)
		}
		for l := range strings.SplitSeq(string(data), "\n") {
			if l = strings.TrimSuffix(l, "\r"); l != "" && strings.ToValidUTF8(l, "") == l {
				inputs = append(inputs, l)
			}
		}
	}
	inputs = append(inputs, generated(t, 20000)...)
	hrefs := nodeHrefs(t, node, inputs)
	version, _ := exec.Command(node, "--version").Output()
	diff, known := 0, map[string]int{}
	for i, s := range inputs {
		u, err := Parse(s, nil)
		got := &u.Href
		if err != nil {
			got = nil
		}
		if (got == nil) == (hrefs[i] == nil) && (got == nil || *got == *hrefs[i]) {
			continue
		}
		if why := olderStandard(s, got, hrefs[i]); why != "" {
			known[why]++
			continue
		}
		if diff++; diff <= 30 {
			t.Errorf("%q: urlkit %v, node %v", s, show(got), show(hrefs[i]))
		}
	}
	t.Logf("%d inputs; node %s: differences the standard's changes since explain: %v", len(inputs), strings.TrimSpace(string(version)), known)
	if diff > 0 {
		t.Errorf("%d of %d inputs differ otherwise", diff, len(inputs))
	}
}

// olderStandard names the change of the URL Standard (or the ada bug,
// fixed since) that explains why Node's href for input differs from
// ours, or "": Node 20's ada predates "^" in the path percent-encode set,
// the "%20" an opaque path's last space takes before "?" or "#", and the
// plain lower-casing of ASCII domains (an ASCII "xn--" label is no longer
// decoded to be checked), all three in urltestdata.json; and it leaves
// some ".." segments (after an empty one), or removes the "/" a final
// ".." leaves, where the standard's path state removes the one and
// keeps the other.
func olderStandard(input string, ours, node *string) string {
	input = removeTabNL(input)
	switch {
	case ours != nil && node == nil && strings.Contains(strings.ToLower(input), "xn--"):
		return "ascii-xn--"
	case ours == nil || node == nil:
		return ""
	}
	o := *ours
	if strings.Contains(input, "^") {
		o = strings.ReplaceAll(o, "%5E", "^")
		if o == *node {
			return "path-caret"
		}
	}
	if i := strings.IndexAny(o, "?#"); i >= 3 && o[i-3:i] == "%20" && o[:i-3]+" "+o[i:] == *node {
		return "opaque-path-space"
	}
	if strings.Contains(input, "..") {
		n := *node
		if i := strings.IndexAny(o, "?#"); i > 0 && o[i-1] == '/' && o[:i-1]+o[i:] == n || strings.TrimSuffix(o, "/") == n ||
			strings.Contains(n, "/../") || strings.HasSuffix(n, "/..") {
			return "final-dot-dot"
		}
	}
	return ""
}

func show(s *string) string {
	if s == nil {
		return "failure"
	}
	return *s
}

// generated returns n inputs made from urltestdata.json's by inserting,
// deleting and replacing bytes with those the parser's states turn on,
// from a fixed seed.
func generated(t *testing.T, n int) []string {
	var seeds []string
	for _, c := range urlCases(t, "urltestdata.json") {
		if c.Base == nil && strings.ToValidUTF8(c.Input, "") == c.Input {
			seeds = append(seeds, c.Input)
		}
	}
	const alphabet = "/\\?#@:.%[]x0AZ \t|^é1-2f"
	r := rand.New(rand.NewPCG(40, 1))
	out := make([]string, 0, n)
	for len(out) < n {
		s := []byte(seeds[r.IntN(len(seeds))])
		for k := r.IntN(4); k >= 0; k-- {
			i := r.IntN(len(s) + 1)
			switch r.IntN(3) {
			case 0:
				s = append(s[:i], append([]byte{alphabet[r.IntN(len(alphabet))]}, s[i:]...)...)
			case 1:
				if i < len(s) {
					s = append(s[:i], s[i+1:]...)
				}
			default:
				if i < len(s) {
					s[i] = alphabet[r.IntN(len(alphabet))]
				}
			}
		}
		if v := string(s); strings.ToValidUTF8(v, "") == v {
			out = append(out, v)
		}
	}
	return out
}
