package wire_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urlkit/urlkit/internal/wire"
)

func ExampleCheckArg() {
	fmt.Println(wire.CheckArg("/pub/sub dir/file.txt", false))
	err := wire.CheckArg("pub\r\nDELE secret", false)
	fmt.Println(err, errors.Is(err, wire.ErrUnsafeArg))
	fmt.Println(wire.CheckArg("selector\tsearch", true))
	// Output:
	// <nil>
	// unsafe argument: CR (0x0d) at offset 3 true
	// unsafe argument: TAB (0x09) at offset 8
}

func ExampleLineReader() {
	lr := wire.NewLineReader(strings.NewReader("220 ok\r\nbare LF\n"+strings.Repeat("x", 100)+"\n"), 64)
	for {
		line, err := lr.ReadLine()
		if err != nil {
			fmt.Println("error:", err, errors.Is(err, wire.ErrLineTooLong))
			break
		}
		fmt.Printf("%q\n", line)
	}
	// Output:
	// "220 ok"
	// "bare LF"
	// error: line too long (limit 64 bytes) true
}
