// Package httpstatus holds the HTTP status that answers a failed fetch,
// for the gateway: package fetch, which alone knows the kinds of its
// errors, installs its mapping here (fetch.Transport answers with it),
// so that the gateway answers an error with the same status without
// fetch exporting one more name.
package httpstatus

// Of returns the HTTP status that answers a fetch that failed with err.
// Package fetch sets it when it is initialized.
var Of func(err error) int
