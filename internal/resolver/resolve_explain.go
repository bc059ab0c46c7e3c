package resolver

import (
	"fmt"
	"strings"
)

// The events of the resolution rules, as package resolve's Explain writes
// them down.
// The algorithms call them where the step happens and know nothing of the
// wording. Each event is a method that does nothing on a nil *Trace,
// small enough to be inlined, so that an algorithm run without an
// explanation pays one nil test per event (a method that formatted
// inline would not be inlined, and each call would cost a resolution a
// few nanoseconds); the wording is in the method of the same name with
// "Note" appended, or, for the events that name one text, in note. A
// short Note method would be inlined into its event, which would then be
// too large to inline: those events share note, one switch over all of
// them, too large to be inlined anywhere.

func (t *Trace) ruleChosen(rule Rule) {
	if t != nil {
		t.ruleChosenNote(rule)
	}
}

// Result writes down the text resolved.
func (t *Trace) Result(s string) {
	if t != nil {
		t.note(evResult, "", s)
	}
}

func (t *Trace) noDotSegments(sec, pathA, pathB string) {
	if t != nil {
		t.noDotSegmentsNote(sec, pathA, pathB)
	}
}

func (t *Trace) removeDotsOn(sec string, path []byte) {
	if t != nil {
		t.note(evRemoveDotsOn, sec, string(path))
	}
}

func (t *Trace) removeDotsResult(sec string, path []byte) {
	if t != nil {
		t.note(evRemoveDotsResult, sec, string(path))
	}
}

func (t *Trace) ruleA(sec string, prefix []byte) {
	if t != nil {
		t.ruleANote(sec, prefix)
	}
}

func (t *Trace) ruleB(sec string, final bool) {
	if t != nil {
		t.ruleBNote(sec, final)
	}
}

func (t *Trace) ruleC(sec string, final bool, segment []byte) {
	if t != nil {
		t.ruleCNote(sec, final, segment)
	}
}

func (t *Trace) ruleD(sec string, input []byte) {
	if t != nil {
		t.ruleDNote(sec, input)
	}
}

func (t *Trace) compat3986(scheme string) {
	if t != nil {
		t.note(evCompat3986, "", scheme)
	}
}

func (t *Trace) absolute3986(path string) {
	if t != nil {
		t.note(evAbsolute3986, "", path)
	}
}

func (t *Trace) networkPath3986(ref *URL, baseScheme string) {
	if t != nil {
		t.networkPath3986Note(ref, baseScheme)
	}
}

func (t *Trace) emptyPath3986(basePath string, refHasQuery bool) {
	if t != nil {
		t.emptyPath3986Note(basePath, refHasQuery)
	}
}

func (t *Trace) absolutePath3986(path string) {
	if t != nil {
		t.note(evAbsolutePath3986, "", path)
	}
}

func (t *Trace) merge3986(base *URL, dir, path string) {
	if t != nil {
		t.merge3986Note(base, dir, path)
	}
}

func (t *Trace) queryFragment3986(query string, hasQuery bool, frag string, hasFrag bool) {
	if t != nil {
		t.queryFragment3986Note(query, hasQuery, frag, hasFrag)
	}
}

func (t *Trace) currentDocument2396(frag string, hasFrag bool) {
	if t != nil {
		t.currentDocument2396Note(frag, hasFrag)
	}
}

func (t *Trace) absolute2396(sameScheme bool) {
	if t != nil {
		t.absolute2396Note(sameScheme)
	}
}

func (t *Trace) compat2396(scheme string) {
	if t != nil {
		t.note(evCompat2396, "", scheme)
	}
}

func (t *Trace) networkPath2396(baseScheme string) {
	if t != nil {
		t.note(evNetworkPath2396, "", baseScheme)
	}
}

func (t *Trace) absolutePath2396(path string) {
	if t != nil {
		t.note(evAbsolutePath2396, "", path)
	}
}

func (t *Trace) merge2396(base *URL, dir, path string) {
	if t != nil {
		t.merge2396Note(base, dir, path)
	}
}

func (t *Trace) leadingDots2396(path string) {
	if t != nil {
		t.leadingDots2396Note(path)
	}
}

func (t *Trace) step7of2396(ref *URL) {
	if t != nil {
		t.step7of2396Note(ref)
	}
}

func (t *Trace) dotsRemoved(sec, label string, n int, lead string, segs []string) {
	if t != nil {
		t.dotsRemovedNote(sec, label, n, lead, segs)
	}
}

func (t *Trace) finalDotRemoved(sec, label, lead string, segs []string) {
	if t != nil {
		t.finalDotRemovedNote(sec, label, lead, segs)
	}
}

func (t *Trace) segmentDotDotRemoved(sec, label, seg, lead string, segs []string) {
	if t != nil {
		t.segmentDotDotRemovedNote(sec, label, seg, lead, segs)
	}
}

func (t *Trace) finalSegmentDotDotRemoved(sec, label, seg, lead string, segs []string) {
	if t != nil {
		t.finalSegmentDotDotRemovedNote(sec, label, seg, lead, segs)
	}
}

func (t *Trace) scheme1808(scheme string) {
	if t != nil {
		t.note(evScheme1808, "", scheme)
	}
}

func (t *Trace) netloc1808(netloc string) {
	if t != nil {
		t.note(evNetloc1808, "", netloc)
	}
}

func (t *Trace) inheritNetloc1808(bp *parts1808) {
	if t != nil {
		t.inheritNetloc1808Note(bp)
	}
}

func (t *Trace) inheritPath1808(bp *parts1808) {
	if t != nil {
		t.inheritPath1808Note(bp)
	}
}

func (t *Trace) params1808(params string) {
	if t != nil {
		t.note(evParams1808, "", params)
	}
}

func (t *Trace) inheritParams1808(bp *parts1808) {
	if t != nil {
		t.inheritParams1808Note(bp)
	}
}

func (t *Trace) query1808(query string) {
	if t != nil {
		t.note(evQuery1808, "", query)
	}
}

func (t *Trace) inheritQuery1808(bp *parts1808) {
	if t != nil {
		t.inheritQuery1808Note(bp)
	}
}

func (t *Trace) merge1808(bp, r *parts1808, dir string) {
	if t != nil {
		t.merge1808Note(bp, r, dir)
	}
}

func (t *Trace) sameDocument1630(context, frag string, hasFrag bool) {
	if t != nil {
		t.sameDocument1630Note(context, frag, hasFrag)
	}
}

func (t *Trace) noRun1630(n int, context, scheme string) {
	if t != nil {
		t.noRun1630Note(n, context, scheme)
	}
}

func (t *Trace) run1630(n int, kept string) {
	if t != nil {
		t.run1630Note(n, kept)
	}
}

func (t *Trace) lastElement1630(path, last, kept, ref string) {
	if t != nil {
		t.lastElement1630Note(path, last, kept, ref)
	}
}

func (t *Trace) kept1630(protected []string) {
	if t != nil {
		t.kept1630Note(protected)
	}
}

func (t *Trace) removed1630(xxx string, final bool, path string) {
	if t != nil {
		t.removed1630Note(xxx, final, path)
	}
}

func (t *Trace) ruleChosenNote(rule Rule) {
	k := rule.kind()
	if k != Rule3986 && k != Rule2396 {
		t.Add("rule", "%s (%s)", ruleNames[k], ruleTitles[k])
		return
	}
	mode := "strict"
	if rule.compat() {
		mode = "compat"
	}
	t.Add("rule", "%s (%s, %s)", ruleNames[k], ruleTitles[k], mode)
}

func describeOpt(v string, ok bool) string {
	if !ok {
		return "none"
	}
	return fmt.Sprintf("%q", v)
}

// The target's assembly and RFC 3986 5.2.4, shared by the rules.

func (t *Trace) slashWritten1808() {
	if t != nil {
		t.Add("RFC 1808 2.2", "after a net_loc, params follow only the \"/\" of an abs_path: \"/\" written before them")
	}
}

// SlashDotWritten notes the "/." written before a path that starts with
// "//" where there is no authority.
func (t *Trace) SlashDotWritten() {
	if t != nil {
		t.Add("RFC 3986 3.3", "the path starts with \"//\" and there is no authority: \"/.\" written before it")
	}
}

// PrefixEscapeWritten notes the escape written for the first byte of a
// path that would read as the "URL:" prefix.
func (t *Trace) PrefixEscapeWritten(path string) {
	if t != nil {
		t.Add("RFC 1738 appendix", "the path %q of a url URL starts with \"scheme:\", so \"url:\" would read as the appendix's \"URL:\" prefix: its first byte written as its escape (RFC 3986 2.3)", path)
	}
}

func (t *Trace) noDotSegmentsNote(sec, pathA, pathB string) {
	t.Add(sec, "remove_dot_segments: %q has no \".\" or \"..\" segment", pathA+pathB)
}

func (t *Trace) ruleANote(sec string, prefix []byte) {
	t.Add(sec+" A", "the prefix %q removed from the input", string(prefix))
}

func (t *Trace) ruleBNote(sec string, final bool) {
	switch {
	case final:
		t.Add(sec+" B", "the final \"/.\" replaced by \"/\"")
	default:
		t.Add(sec+" B", "\"/./\" replaced by \"/\"")
	}
}

// ruleC: segment is what left the output, empty when it had none.
func (t *Trace) ruleCNote(sec string, final bool, segment []byte) {
	what := "\"/../\""
	if final {
		what = "the final \"/..\""
	}
	if len(segment) == 0 {
		t.Add(sec+" C", "%s replaced by \"/\"; the output has no segment to remove", what)
	} else {
		t.Add(sec+" C", "%s replaced by \"/\" and the segment %q removed from the output", what, string(segment))
	}
}

func (t *Trace) ruleDNote(sec string, input []byte) {
	t.Add(sec+" D", "the input %q alone removed", string(input))
}

// RFC 3986 5.2.2 and 5.2.3.

const sec3986 = "RFC 3986 5.2.2"

func (t *Trace) networkPath3986Note(ref *URL, baseScheme string) {
	a, _ := ref.Authority()
	t.Add(sec3986, "the reference has an authority %q (a network-path reference): scheme %q kept from the base, path %q through remove_dot_segments", a, baseScheme, ref.Path)
}

func (t *Trace) emptyPath3986Note(basePath string, refHasQuery bool) {
	q := "the reference's"
	if !refHasQuery {
		q = "the base's"
	}
	t.Add(sec3986, "the reference's path is empty: scheme, authority and path %q kept from the base, and %s query", basePath, q)
}

// merge3986: dir is what mergeBase kept of the base path, path the
// reference's.
func (t *Trace) merge3986Note(base *URL, dir, path string) {
	t.Add(sec3986, "the reference's path %q is relative: scheme and authority kept from the base", path)
	if base.HasAuthority && base.Path == "" {
		t.Add("RFC 3986 5.2.3", "merge: the base has an authority and an empty path, so \"/\" and the reference's path give %q", dir+path)
	} else {
		t.Add("RFC 3986 5.2.3", "merge: the base path %q without its last segment (%q) and the reference's path give %q", base.Path, base.Path[len(dir):], dir+path)
	}
}

func (t *Trace) queryFragment3986Note(query string, hasQuery bool, frag string, hasFrag bool) {
	t.Add(sec3986, "query %s and fragment %s", describeOpt(query, hasQuery), describeOpt(frag, hasFrag))
}

// RFC 2396 5.2.

const sec2396 = "RFC 2396 5.2"

func (t *Trace) currentDocument2396Note(frag string, hasFrag bool) {
	t.Add(sec2396+" step 2", "empty path and no scheme, authority or query: a reference to the current document, the base without its fragment; fragment %s", describeOpt(frag, hasFrag))
}

// absolute2396: sameScheme says whether compat saw the base's scheme and
// kept it, the scheme not being one known to use <hier_part>.
func (t *Trace) absolute2396Note(sameScheme bool) {
	note := "the reference has a scheme: it is absolute and taken as it is"
	if sameScheme {
		note += " (compat removes only the scheme of a scheme known to use the <hier_part> syntax)"
	}
	t.Add(sec2396+" step 3", "%s", note)
}

func (t *Trace) merge2396Note(base *URL, dir, path string) {
	t.Add(sec2396+" step 4", "no authority in the reference: scheme and authority from the base")
	if base.HasAuthority && base.Path == "" {
		t.Add(sec2396+" step 6a", "the base has an authority and no path: the buffer starts with \"/\" (RFC 3986 5.2.3's fix; RFC 2396 would glue the path to the host)")
	} else {
		t.Add(sec2396+" step 6a", "the base path %q without its last segment: %q", base.Path, dir)
	}
	t.Add(sec2396+" step 6b", "the reference's path %q appended: %q", path, dir+path)
}

func (t *Trace) leadingDots2396Note(path string) {
	if strings.HasPrefix(path, "/../") || path == "/.." {
		t.Add(sec2396+" step 6g", "\"..\" segments left at the start are kept")
	}
}

func (t *Trace) step7of2396Note(ref *URL) {
	t.Add(sec2396+" step 7", "query %s and fragment %s from the reference", describeOpt(ref.Query, ref.HasQuery), describeOpt(ref.Fragment, ref.HasFragment))
}

// RFC 2396 5.2 step 6c-6f and RFC 1808 step 6a-6d (dotSteps): each note
// ends with the path as it now is, lead followed by segs.

func (t *Trace) dotStep(sec, label, note, lead string, segs []string) {
	t.Add(sec+label, "%s: %q", note, lead+strings.Join(segs, "/"))
}

func (t *Trace) dotsRemovedNote(sec, label string, n int, lead string, segs []string) {
	t.dotStep(sec, label, fmt.Sprintf("%d \"./\" removed", n), lead, segs)
}

func (t *Trace) finalDotRemovedNote(sec, label, lead string, segs []string) {
	t.dotStep(sec, label, "the final \".\" removed", lead, segs)
}

func (t *Trace) segmentDotDotRemovedNote(sec, label, seg, lead string, segs []string) {
	t.dotStep(sec, label, fmt.Sprintf("%q removed", seg+"/../"), lead, segs)
}

func (t *Trace) finalSegmentDotDotRemovedNote(sec, label, seg, lead string, segs []string) {
	t.dotStep(sec, label, fmt.Sprintf("the final %q removed", seg+"/.."), lead, segs)
}

// RFC 1808 section 4.

const sec1808 = "RFC 1808 step "

func (t *Trace) empty1808() {
	if t != nil {
		t.Add(sec1808+"2a", "the reference is empty: it is the whole base, fragment included")
	}
}

func (t *Trace) absolute1808() {
	if t != nil {
		t.Add(sec1808+"2b", "the reference starts with a scheme name: it is absolute and taken as it is")
	}
}

func (t *Trace) inheritNetloc1808Note(bp *parts1808) {
	t.Add(sec1808+"3", "the reference's net_loc is empty: it inherits the base's, %s", describeOpt(bp.netloc, bp.hasNetloc))
}

func (t *Trace) absolutePath1808() {
	if t != nil {
		t.Add(sec1808+"4", "the reference's path is preceded by \"/\": it is not relative, done")
	}
}

func (t *Trace) inheritPath1808Note(bp *parts1808) {
	t.Add(sec1808+"5", "the reference's path is empty: it inherits the base path %q", slashPath(bp.slash, bp.path))
}

func (t *Trace) inheritParams1808Note(bp *parts1808) {
	t.Add(sec1808+"5a", "the reference has no params: it inherits the base's, %s", describeOpt(bp.params, bp.hasParams))
}

func (t *Trace) inheritQuery1808Note(bp *parts1808) {
	t.Add(sec1808+"5b", "the reference has no query: it inherits the base's, %s", describeOpt(bp.query, bp.hasQuery))
}

// merge1808: r is the reference before its path is merged, dir the base
// path up to its last "/".
func (t *Trace) merge1808Note(bp, r *parts1808, dir string) {
	t.Add(sec1808+"6", "the last segment of the base path %q removed (params %s and query play no part) and the reference's path %q appended: %q",
		slashPath(bp.slash, bp.path), describeOpt(bp.params, bp.hasParams), r.path, slashPath(r.slash, dir+r.path))
	if bp.hasNetloc && !bp.slash {
		t.Add(sec1808+"6", "the base has a net_loc and no path: \"/\" separates them (RFC 1808 2.2: net_path = \"//\" net_loc [ abs_path ])")
	}
}

func slashPath(slash bool, path string) string {
	if slash {
		return "/" + path
	}
	return path
}

// RFC 1630's partial form.

const sec1630 = "RFC 1630"

func (t *Trace) absolute1630() {
	if t != nil {
		t.Add(sec1630, "the reference has a colon before any slash: it is absolute and taken as it is")
	}
}

func (t *Trace) sameDocument1630Note(context, frag string, hasFrag bool) {
	switch {
	case hasFrag:
		t.Add(sec1630+" (urlkit's choice)", "a fragment alone: the context %q with fragment %q", context, frag)
	default:
		t.Add(sec1630+" (urlkit's choice)", "the empty reference: the context itself, %q", context)
	}
}

func (t *Trace) noRun1630Note(n int, context, scheme string) {
	t.Add(sec1630+" (urlkit's choice)", "the partial form starts with %d slashes and the context %q has no run of exactly %d: only the scheme %q is kept", n, context, n, scheme)
}

func (t *Trace) run1630Note(n int, kept string) {
	t.Add(sec1630, "the partial form starts with %d slash(es): the context up to its first run of exactly %d is kept, %q", n, n, kept)
}

func (t *Trace) slashAfterAuthority1630() {
	if t != nil {
		t.Add(sec1630+" (urlkit's choice)", "the context has an authority and an empty path: \"/\" separates them")
	}
}

func (t *Trace) lastElement1630Note(path, last, kept, ref string) {
	t.Add(sec1630, "the last element of the context's path %q, %q, replaced by the partial form: %q", path, last, kept+ref)
}

func (t *Trace) kept1630Note(protected []string) {
	for _, xxx := range protected {
		t.Add(sec1630, "%q kept: %q follows a run of slashes, which \"..\" does not climb over", xxx+"/..", xxx)
	}
}

// removed1630: xxx is the element removed with "/..", "" for a "/.".
func (t *Trace) removed1630Note(xxx string, final bool, path string) {
	what := "\"/.\""
	switch {
	case xxx != "" && final:
		what = fmt.Sprintf("the final %q (urlkit's choice: as if followed by \"/\")", xxx+"/..")
	case xxx != "":
		what = fmt.Sprintf("%q", xxx+"/../")
	}
	t.Add(sec1630, "%s removed: %q", what, path)
}

// event names an event whose note names one text.
type event uint8

const (
	evResult event = iota
	evRemoveDotsOn
	evRemoveDotsResult
	evCompat3986
	evAbsolute3986
	evAbsolutePath3986
	evCompat2396
	evNetworkPath2396
	evAbsolutePath2396
	evScheme1808
	evNetloc1808
	evParams1808
	evQuery1808
)

// note writes down event e, which names the text v; sec is the section
// of the dot-segment events, which several rules share.
func (t *Trace) note(e event, sec, v string) {
	switch e {
	case evResult:
		t.Add("result", "%s", v)
	case evRemoveDotsOn:
		t.Add(sec, "remove_dot_segments on %q", v)
	case evRemoveDotsResult:
		t.Add(sec, "result %q", v)
	case evCompat3986:
		t.Add(sec3986, "compat: the reference's scheme %q is the base's, so it is ignored (the note of 5.2.2)", v)
	case evAbsolute3986:
		t.Add(sec3986, "the reference has a scheme: it is absolute; everything comes from it, its path %q through remove_dot_segments", v)
	case evAbsolutePath3986:
		t.Add(sec3986, "the reference's path %q is absolute: scheme and authority kept from the base, the path through remove_dot_segments", v)
	case evCompat2396:
		t.Add(sec2396+" step 3", "compat: the reference's scheme %q is the base's and always uses the <hier_part> syntax, so it is removed", v)
	case evNetworkPath2396:
		t.Add(sec2396+" step 4", "the reference has an authority (a network path): only the scheme %q comes from the base", v)
	case evAbsolutePath2396:
		t.Add(sec2396+" step 5", "the reference's path %q is absolute: scheme and authority from the base, the path as it is", v)
	case evScheme1808:
		t.Add(sec1808+"2c", "the reference inherits the scheme %q", v)
	case evNetloc1808:
		t.Add(sec1808+"3", "the reference's net_loc %q is not empty: done", v)
	case evParams1808:
		t.Add(sec1808+"5a", "the reference's params %q are not empty: done", v)
	case evQuery1808:
		t.Add(sec1808+"5b", "the reference's query %q is not empty: done", v)
	}
}
