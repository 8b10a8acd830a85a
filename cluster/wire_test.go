package cluster

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/tabula-games/tabula/match"
)

// fill sets every exported field reachable from v to a value of its own
// (no zero values, slices of two, maps of one), so that a field the wire
// types forget shows in a round trip.
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(time.Time{}) {
			v.Set(reflect.ValueOf(time.Date(2026, 12, 1, 10, 0, *n, *n*1000, time.UTC)))
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), n)
			}
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Slice:
		if v.Type() == reflect.TypeOf(json.RawMessage{}) {
			v.SetBytes([]byte(fmt.Sprintf(`{"x":%d}`, *n)))
			return
		}
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := 0; i < 2; i++ {
			fill(s.Index(i), n)
		}
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, n)
		fill(e, n)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.String:
		v.SetString(fmt.Sprint("s", *n))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(*n))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(*n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(*n) + 0.5)
	}
}

// TestWireRoundTrip: every field of an event, a command and an answer
// crosses the bus and comes back equal — but a game's seed and start
// position, which never go on it (a flag says there is a start position).
// A field added to match's types and not to wire.go's fails here.
func TestWireRoundTrip(t *testing.T) {
	n := 0
	var ev match.Event
	fill(reflect.ValueOf(&ev).Elem(), &n)
	w := eventToWire(&ev)
	w.Stream, w.N = 7, 9
	data, err := encode(typeEvent, "node1", w)
	if err != nil {
		t.Fatal(err)
	}
	var back eventV1
	msg, err := decode(data, typeEvent, &back)
	if err != nil || msg.Node != "node1" || msg.V != wireVersion || back.Stream != 7 || back.N != 9 || !back.Meta.Start {
		t.Fatalf("decode: %+v, stream %d, n %d, start %v, %v", msg, back.Stream, back.N, back.Meta.Start, err)
	}
	want := ev
	want.Meta.Seed, want.Meta.StartPosition = 0, nil
	if got := eventFromWire(&back); !reflect.DeepEqual(got, want) {
		t.Fatalf("an event across the bus:\n got %+v\nwant %+v", got, want)
	}

	var c match.Command
	fill(reflect.ValueOf(&c).Elem(), &n)
	cw := commandToWire("g", &c)
	if data, err = encode(typeCommand, "node1", cw); err != nil {
		t.Fatal(err)
	}
	var cback commandV1
	if _, err := decode(data, typeCommand, &cback); err != nil || cback.Game != "g" {
		t.Fatalf("decode a command: %+v, %v", cback, err)
	}
	if got := commandFromWire(&cback); !reflect.DeepEqual(got, c) {
		t.Fatalf("a command across the bus:\n got %+v\nwant %+v", got, c)
	}

	var ack match.Ack
	fill(reflect.ValueOf(&ack).Elem(), &n)
	if data, err = encode(typeReply, "node1", replyV1{Ack: ackToWire(&ack)}); err != nil {
		t.Fatal(err)
	}
	var rep replyV1
	if _, err := decode(data, typeReply, &rep); err != nil || rep.Ack == nil {
		t.Fatalf("decode a reply: %+v, %v", rep, err)
	}
	wantAck := ack
	wantAck.Meta.Seed, wantAck.Meta.StartPosition = 0, nil
	if got := ackFromWire(rep.Ack); !reflect.DeepEqual(got, wantAck) {
		t.Fatalf("an answer across the bus:\n got %+v\nwant %+v", got, wantAck)
	}
}

// TestWireVersions: what a node does with messages of other versions
// (wire.go): a field it does not know is ignored, a message of another
// version or of an unknown type is not read — an event is dropped (and
// logged once per kind), a forwarded command is answered "unavailable" —
// and a message of its own version is read as ever.
func TestWireVersions(t *testing.T) {
	// Decoding alone.
	var w eventV1
	if _, err := decode([]byte(`{"v":1,"type":"event","node":"n","later":true,"body":{"game":"g","seq":4,"n":1,"stream":2,"meta":{"id":"g","status":"live","brandNew":[1]}}}`), typeEvent, &w); err != nil || w.Game != "g" || w.Seq != 4 {
		t.Fatalf("a version 1 message with fields added later: %+v, %v", w, err)
	}
	for _, tc := range []struct {
		data string
		want error
	}{
		{`{"v":2,"type":"event","node":"n","body":{"game":"g","seq":4}}`, errVersion},
		{`{"node":"n","event":{"Game":"g","Seq":4}}`, errVersion}, // a node older than busv1
		{`{"v":1,"type":"telepathy","node":"n","body":{}}`, errType},
	} {
		if _, err := decode([]byte(tc.data), typeEvent, &w); !errors.Is(err, tc.want) {
			t.Fatalf("%s: %v, want %v", tc.data, err, tc.want)
		}
	}

	// Between nodes.
	e := newQuietEnv(t)
	a, b := e.start(), e.start()
	watch(b, "g")
	a.create("g", twoHumans(20))
	nc, err := nats.Connect(e.nats)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	subj := e.prefix + ".ev.g.-"
	for _, m := range []string{
		`{"v":2,"type":"event","node":"future","body":{"stream":1,"n":1,"game":"g","seq":98,"kind":"move","meta":{"id":"g"}}}`,
		`{"v":2,"type":"event","node":"future","body":{"stream":1,"n":2,"game":"g","seq":99,"kind":"move","meta":{"id":"g"}}}`,
		`{"node":"past","event":{"Game":"g","Seq":97,"Kind":"move"}}`,
		`{"v":1,"type":"telepathy","node":"odd","body":{"game":"g","seq":96}}`,
	} {
		if err := nc.Publish(subj, []byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	play(t, a, "g", 0, 1)
	if _, err := b.events.Wait(func(ev match.Event) bool { return ev.Game == "g" && ev.Seq == 4 }); err != nil {
		t.Fatal(err)
	}
	// (The messages come from another connection than a's move: in
	// either order.)
	e.waitFor(10*time.Second, "b counting the 4 messages it does not read", func() bool { return b.n.foreignMsgs.Load() >= 4 })
	for _, ev := range b.events.All() {
		if ev.Seq > 90 {
			t.Fatalf("b handed on an event of another version: %+v", ev)
		}
	}
	if n := b.n.foreignMsgs.Load(); n != 4 {
		t.Fatalf("b counted %d messages it did not read, want 4", n)
	}
	if n := e.logged("does not read"); n != 3 {
		t.Fatalf("logged %d times, want once for each kind (version 2, no version, an unknown type): %d", n, n)
	}

	// A forwarded command of another version is answered, in version 1:
	// unavailable, applied nowhere.
	for _, m := range []string{
		`{"v":2,"type":"command","node":"future","body":{"game":"g","kind":"move","user":2,"seat":-1,"ply":1,"move":"1"}}`,
		`{"game":"g","cmd":{"Kind":"move","User":{"ID":2},"Seat":-1,"Ply":1,"Move":"1"}}`,
	} {
		r, err := nc.Request(e.prefix+".cmd."+a.n.ID(), []byte(m), 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		var rep replyV1
		if _, err := decode(r.Data, typeReply, &rep); err != nil || rep.Err == nil || rep.Err.Code != string(match.CodeUnavailable) {
			t.Fatalf("a command of another version: %s (%v)", r.Data, err)
		}
	}
	if moves := e.moves("g"); len(moves) != 1 {
		t.Fatalf("%d moves stored, want 1", len(moves))
	}
	// And one of version 1 is applied.
	r, err := nc.Request(e.prefix+".cmd."+a.n.ID(), []byte(`{"v":1,"type":"command","node":"x","body":{"game":"g","kind":"move","user":2,"seat":-1,"ply":1,"move":"1"}}`), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var rep replyV1
	if _, err := decode(r.Data, typeReply, &rep); err != nil || rep.Ack == nil || rep.Ack.Move == nil || rep.Ack.Move.Ply != 1 {
		t.Fatalf("a version 1 command: %s (%v)", r.Data, err)
	}
}
