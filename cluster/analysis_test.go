package cluster

import "testing"

// TestAnalysisElsewhere: a job id names the node that runs it; an id whose
// node part could not be a node's id — a NATS wildcard or token separator,
// an empty or overlong name — names none, so that a forged id never
// becomes another subject on the bus, and this node's own jobs are here.
func TestAnalysisElsewhere(t *testing.T) {
	n := &Node{id: "node1-ab12cd34"}
	if p := n.AnalysisPrefix(); p != "node1-ab12cd34." {
		t.Fatalf("prefix %q", p)
	}
	for id, want := range map[string]string{
		"node2-ff00ff00.k3m9x2q7ab23456789ab": "node2-ff00ff00",
		"node1-ab12cd34.k3m9x2q7ab23456789ab": "", // here
		"k3m9x2q7ab23456789ab":                "", // one node's id, no prefix
		"*.k3m9":                              "",
		">.k3m9":                              "",
		"a b.k3m9":                            "",
		".k3m9":                               "",
		"node2.ev.x.k3m9":                     "node2", // the node is what comes before the first dot
		"n" + string(make([]byte, 70)) + ".x": "",
	} {
		node, ok := n.AnalysisElsewhere(id)
		if node != want || ok != (want != "") {
			t.Errorf("AnalysisElsewhere(%q) = %q, %v; want %q", id, node, ok, want)
		}
	}
}
