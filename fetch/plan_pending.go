package fetch

import (
	"errors"

	"github.com/urlkit/urlkit"
)

// planFTP waits for package scheme's ftp view.
func planFTP(u *urlkit.URL) (*ftpPlan, error) {
	return nil, errors.New("ftp: waiting for package scheme")
}

// planGopher waits for package scheme's gopher view.
func planGopher(u *urlkit.URL) (*gopherPlan, error) {
	return nil, errors.New("gopher: waiting for package scheme")
}
