// Stand-in for the sidecar of openkruise/hotupgrade-sample (built offline; the real image is on Docker Hub).
// Behaviour matched: GET :9091/serve answers "This is version(<v>) sidecar"; a sidecar started during a hot
// upgrade (SIDECARSET_VERSION > SIDECARSET_VERSION_ALT) asks the running one for its listening socket via
// GET /migrate and receives it over a unix socket in the pod's shared /dev/shm, so no connection is refused
// during the hand-over; /result appears once serving, which /migrate.sh (the postStart hook) waits for.
// The version comes from /sidecar-version in the image ("empty" blocks forever, like the sample's empty image).
package main

import (
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

const (
	addr       = ":9091"
	handoverAt = "/dev/shm/migrate.sock"
	resultFile = "/result"
)

func main() {
	log.SetFlags(log.LstdFlags | log.Lmicroseconds)
	raw, err := os.ReadFile("/sidecar-version")
	if err != nil {
		log.Fatalf("read /sidecar-version: %v", err)
	}
	version := strings.TrimSpace(string(raw))
	if version == "empty" {
		log.Printf("empty sidecar: idle")
		idle()
	}

	upgrading, newer := role(os.Getenv("SIDECARSET_VERSION"), os.Getenv("SIDECARSET_VERSION_ALT"))
	if upgrading && !newer {
		// The older slot restarted mid-upgrade: the newer one owns the port, so stay out of the way.
		log.Printf("older sidecar during a hot upgrade: not listening, exiting in 1m")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	var ln *net.TCPListener
	if upgrading {
		if ln, err = takeOver(); err != nil {
			log.Printf("taking over the listener failed (%v), listening anew", err)
		}
	}
	if ln == nil {
		a, _ := net.ResolveTCPAddr("tcp", addr)
		if ln, err = net.ListenTCP("tcp", a); err != nil {
			log.Fatalf("listen %s: %v", addr, err)
		}
	}

	mux := http.NewServeMux()
	mux.HandleFunc("/serve", func(w http.ResponseWriter, _ *http.Request) {
		time.Sleep(10 * time.Millisecond)
		fmt.Fprintf(w, "This is version(%s) sidecar", version)
	})
	mux.HandleFunc("/migrate", func(w http.ResponseWriter, _ *http.Request) {
		if err := handOver(ln); err != nil {
			log.Printf("hand-over failed: %v", err)
			io.WriteString(w, "failed")
			return
		}
		io.WriteString(w, "success")
	})
	log.Printf("serving version(%s) on %s", version, ln.Addr())
	go func() {
		// After a hand-over Serve returns (our copy of the listener is closed); requests in flight still finish.
		if err := http.Serve(ln, mux); err != nil {
			log.Printf("no longer accepting: %v", err)
		}
	}()
	time.Sleep(5 * time.Second)
	if err := os.WriteFile(resultFile, []byte("success"), 0o644); err != nil {
		log.Fatalf("write %s: %v", resultFile, err)
	}
	log.Printf("serve success")
	idle()
}

// idle blocks until the container is stopped. (A bare select{} would be reported as a deadlock by the Go
// runtime once no other goroutine runs.)
func idle() {
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	s := <-stop
	log.Printf("%v: exiting", s)
	os.Exit(0)
}

// role: whether a hot upgrade is under way and, if so, whether this container is the newer of the two slots.
func role(version, alt string) (upgrading, newer bool) {
	if alt == "" || alt == "0" {
		return false, false
	}
	v, err1 := strconv.Atoi(version)
	a, err2 := strconv.Atoi(alt)
	if err1 != nil || err2 != nil {
		log.Printf("bad SIDECARSET_VERSION(_ALT) %q/%q", version, alt)
		return false, false
	}
	return true, v > a
}

// takeOver listens on the hand-over socket, asks the running sidecar to migrate, and returns the listener it sends.
func takeOver() (*net.TCPListener, error) {
	_ = os.Remove(handoverAt)
	uds, err := net.ListenUnix("unix", &net.UnixAddr{Name: handoverAt, Net: "unix"})
	if err != nil {
		return nil, err
	}
	defer uds.Close()
	got := make(chan *net.TCPListener, 1)
	go func() { got <- receive(uds) }()
	resp, err := http.Get("http://127.0.0.1" + addr + "/migrate")
	if err != nil {
		return nil, err
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "success" {
		return nil, fmt.Errorf("/migrate answered %q", body)
	}
	select {
	case ln := <-got:
		if ln == nil {
			return nil, errors.New("no listener received")
		}
		log.Printf("took over the listener")
		return ln, nil
	case <-time.After(10 * time.Second):
		return nil, errors.New("timed out waiting for the listener")
	}
}

func receive(uds *net.UnixListener) *net.TCPListener {
	c, err := uds.AcceptUnix()
	if err != nil {
		return nil
	}
	defer c.Close()
	oob := make([]byte, syscall.CmsgSpace(4))
	_, oobn, _, _, err := c.ReadMsgUnix(make([]byte, 1), oob)
	if err != nil {
		return nil
	}
	msgs, err := syscall.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) == 0 {
		return nil
	}
	fds, err := syscall.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) == 0 {
		return nil
	}
	l, err := net.FileListener(os.NewFile(uintptr(fds[0]), "listener"))
	if err != nil {
		return nil
	}
	tl, _ := l.(*net.TCPListener)
	return tl
}

// handOver sends a duplicate of the listening socket to the newer sidecar, then stops accepting on ours.
func handOver(ln *net.TCPListener) error {
	f, err := ln.File()
	if err != nil {
		return err
	}
	defer f.Close()
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: handoverAt, Net: "unix"})
	if err != nil {
		return err
	}
	defer c.Close()
	if _, _, err := c.WriteMsgUnix([]byte{0}, syscall.UnixRights(int(f.Fd())), nil); err != nil {
		return err
	}
	log.Printf("listener handed over; closing ours")
	return ln.Close()
}
