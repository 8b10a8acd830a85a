package server

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// MetricsHandler serves the Prometheus metrics. It is not part of Handler:
// the operator serves it on an address of its own (tabula serve
// --metrics-addr, loopback by default), since the figures (process memory,
// request counts) are nobody else's business.
func (s *Server) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{})
}

// metrics are the server's Prometheus metrics, in a registry of its own so
// that several servers (tests) can live in one process.
type metrics struct {
	reg       *prometheus.Registry
	liveGames prometheus.Gauge
	wsClients prometheus.Gauge
	moves     prometheus.Counter
	latency   prometheus.Histogram
	requests  *prometheus.CounterVec
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		liveGames: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "tabula_live_games", Help: "Open and live games held by an owner in this process.",
		}),
		wsClients: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "tabula_ws_clients", Help: "Connected WebSocket clients (game and user channels).",
		}),
		moves: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "tabula_moves_total", Help: "Moves committed (people and bots); rate() gives moves per second.",
		}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "tabula_move_latency_seconds",
			Help:    "Time from receiving a client's move to acknowledging it (validated and committed to disk).",
			Buckets: []float64{.0005, .001, .002, .005, .01, .02, .05, .1, .2, .5, 1, 2, 5},
		}),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tabula_http_requests_total", Help: "HTTP requests by status code.",
		}, []string{"code"}),
	}
	m.reg.MustRegister(m.liveGames, m.wsClients, m.moves, m.latency, m.requests,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}
