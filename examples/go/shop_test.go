// Go recipe: one pix-sandbox process for the package's tests (--port 0, address from its --ready-json line), a tenant
// of our own, and a webhook receiver of our own (httptest). Run: go test ./... (PIX_SANDBOX_CLI: the sandbox's cli.js).
package shop

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"testing"
	"time"
)

type ready struct {
	URL        string `json:"url"`
	V2URL      string `json:"v2Url"`
	ControlURL string `json:"controlUrl"`
	CA         string `json:"ca"` // only under --https
}

type webhook struct {
	Valid bool
	Event struct {
		Event string `json:"event"`
		Data  struct {
			TransactionID string  `json:"transactionId"`
			Amount        float64 `json:"amount"`
		} `json:"data"`
	}
}

var (
	sandbox    ready
	httpClient = http.DefaultClient
	api        *Client
	webhookURL string
	deliveries = make(chan webhook, 100)
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	cli := os.Getenv("PIX_SANDBOX_CLI")
	if cli == "" {
		cli = "../../dist/cli.js"
	}
	cmd := exec.Command("node", cli, "--port", "0", "--ready-json")
	cmd.Stderr = os.Stderr
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "cannot start pix-sandbox:", err)
		return 1
	}
	defer func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() }()
	line, err := bufio.NewReader(stdout).ReadBytes('\n') // the ready line: the sandbox is listening
	if err != nil || json.Unmarshal(line, &sandbox) != nil {
		fmt.Fprintf(os.Stderr, "no ready line from pix-sandbox (%v): %q\n", err, line)
		return 1
	}
	if sandbox.CA != "" { // under --https: trust the sandbox's CA, and only for the sandbox
		pem, err := os.ReadFile(sandbox.CA)
		pool := x509.NewCertPool()
		if err != nil || !pool.AppendCertsFromPEM(pem) {
			fmt.Fprintln(os.Stderr, "cannot read the CA", sandbox.CA, err)
			return 1
		}
		httpClient = &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	}

	// Our webhook endpoint: checks the signature over the raw bytes, answers 200 or 401.
	secret := fmt.Sprintf("whsec_recipe_go_%d", time.Now().UnixNano())
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		hook := webhook{Valid: VerifySignature(raw, r.Header.Get("X-Service-Signature"), secret)}
		if !hook.Valid {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		json.Unmarshal(raw, &hook.Event)
		deliveries <- hook
	}))
	defer receiver.Close()
	webhookURL = receiver.URL + "/webhooks"

	var tenant struct {
		Credentials []struct{ ClientID, ClientSecret string }
	}
	spec := map[string]any{"name": "go recipe", "webhooks": []map[string]string{{"url": webhookURL, "secret": secret}}}
	if err := control("POST", "/accounts", spec, &tenant); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	api = &Client{BaseURL: sandbox.V2URL, ClientID: tenant.Credentials[0].ClientID, ClientSecret: tenant.Credentials[0].ClientSecret, HTTP: httpClient}
	return m.Run()
}

// control calls the sandbox's control API (what the bank, or time, would do).
func control(method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, _ := json.Marshal(in)
		body = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, sandbox.ControlURL+path, body)
	req.Header.Set("Content-Type", "application/json")
	res, err := httpClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	text, _ := io.ReadAll(res.Body)
	if res.StatusCode >= 400 {
		return fmt.Errorf("%s %s answered %d: %s", method, path, res.StatusCode, text)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(text, out)
}

func nextDelivery(t *testing.T, event, transactionID string) webhook {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case hook := <-deliveries:
			if hook.Event.Event == event && hook.Event.Data.TransactionID == transactionID {
				return hook
			}
		case <-timeout:
			t.Fatalf("no %s for %s within 10 s", event, transactionID)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestAPaidChargeSendsASignedPaymentCompleted(t *testing.T) {
	ctx := context.Background()
	charge, err := api.CreateCharge(ctx, NewCharge{Amount: 25.90, Description: "Pedido 42"})
	must(t, err)
	if charge.Status != "pending" {
		t.Fatalf("new charge status %q, want pending", charge.Status)
	}

	must(t, control("POST", "/transactions/"+charge.ID+"/pay", map[string]string{"payerName": "Ana Souza"}, nil))

	hook := nextDelivery(t, "payment_completed", charge.ID)
	if hook.Event.Data.Amount != 25.90 {
		t.Errorf("payment_completed amount %v, want 25.90", hook.Event.Data.Amount)
	}
	must(t, control("POST", "/settle", nil, nil)) // every delivery went out
	got, err := api.GetCharge(ctx, charge.ID)
	must(t, err)
	if got.Status != "completed" {
		t.Errorf("status %q, want completed", got.Status)
	}
}

func TestTheReceiverRefusesAWrongSignature(t *testing.T) {
	req, _ := http.NewRequest("POST", webhookURL, bytes.NewReader([]byte(`{"event":"payment_completed"}`)))
	req.Header.Set("X-Service-Signature", "sha256=0")
	res, err := http.DefaultClient.Do(req)
	must(t, err)
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("status %d, want 401", res.StatusCode)
	}
}

func TestAChargeExpiresWhenTheClockPassesItsExpiry(t *testing.T) {
	ctx := context.Background()
	charge, err := api.CreateCharge(ctx, NewCharge{Amount: 20, Description: "Pedido 43", ExpiresIn: 300})
	must(t, err)
	must(t, control("POST", "/clock/advance", map[string]int{"seconds": 301}, nil))
	got, err := api.GetCharge(ctx, charge.ID)
	must(t, err)
	if got.Status != "cancelled" {
		t.Errorf("status %q, want cancelled", got.Status)
	}
}

func TestTheMagicCPF00000000191PaysTheChargeAfter5Seconds(t *testing.T) {
	ctx := context.Background()
	charge, err := api.CreateCharge(ctx, NewCharge{Amount: 100, Description: "Pedido 44", Customer: &Customer{Name: "Ana Souza", Document: "00000000191"}})
	must(t, err)
	must(t, control("POST", "/clock/advance", map[string]int{"seconds": 5}, nil))
	got, err := api.GetCharge(ctx, charge.ID)
	must(t, err)
	if got.Status != "completed" || got.CounterpartDocument != "00000000191" {
		t.Errorf("got %+v, want completed by 00000000191", got)
	}
}
