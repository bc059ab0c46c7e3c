package wiretest

import (
	"os"
	"testing"
)

// RequireServersVar is the environment variable that turns missing test
// servers from a skip into a failure. CI sets it to 1.
const RequireServersVar = "URLKIT_REQUIRE_SERVERS"

// ServerEnv returns the values of the environment variables keys, which
// describe a real test server (FTP_PORT, GOPHER_PORT, ...; see
// scripts/with-servers.sh). If one is unset or empty the test is skipped,
// or fails when URLKIT_REQUIRE_SERVERS=1, so a CI run cannot silently test
// nothing.
func ServerEnv(t testing.TB, keys ...string) map[string]string {
	t.Helper()
	env := make(map[string]string, len(keys))
	for _, k := range keys {
		v := os.Getenv(k)
		if v == "" {
			msg := "$" + k + " not set: start the servers, e.g. scripts/with-servers.sh ftp gopher gophernicus -- go test ./..."
			if os.Getenv(RequireServersVar) == "1" {
				t.Fatalf("%s (%s=1)", msg, RequireServersVar)
			}
			t.Skip(msg)
		}
		env[k] = v
	}
	return env
}
