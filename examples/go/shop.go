// Package shop is the app under test: its own client of the service's v2 API and its webhook check. Nothing here
// knows about the sandbox; in production the same code gets the real base URL.
package shop

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

type Client struct {
	BaseURL      string // the v2 base URL
	ClientID     string
	ClientSecret string
	HTTP         *http.Client // nil: http.DefaultClient
	token        string
}

type Customer struct {
	Name     string `json:"name,omitempty"`
	Document string `json:"document,omitempty"`
}

type NewCharge struct {
	Amount      float64   `json:"amount"`
	Description string    `json:"description"`
	ExpiresIn   int       `json:"expiresIn,omitempty"`
	Customer    *Customer `json:"customer,omitempty"`
}

type Charge struct {
	ID                  string  `json:"id"`
	Status              string  `json:"status"`
	Amount              float64 `json:"amount"`
	CounterpartDocument string  `json:"counterpartDocument"`
}

func (c *Client) CreateCharge(ctx context.Context, in NewCharge) (Charge, error) {
	var out Charge
	return out, c.call(ctx, http.MethodPost, "/pix", in, &out, true)
}

func (c *Client) GetCharge(ctx context.Context, id string) (Charge, error) {
	var out Charge
	return out, c.call(ctx, http.MethodGet, "/transactions/"+id, nil, &out, true)
}

func (c *Client) call(ctx context.Context, method, path string, in, out any, retry bool) error {
	if c.token == "" {
		var auth struct {
			AccessToken string `json:"access_token"`
		}
		creds := map[string]string{"client_id": c.ClientID, "client_secret": c.ClientSecret}
		if _, err := c.do(ctx, http.MethodPost, "/auth", "", creds, &auth); err != nil {
			return err
		}
		c.token = auth.AccessToken
	}
	status, err := c.do(ctx, method, path, c.token, in, out)
	if status == http.StatusUnauthorized && retry { // a token lives 300 s: take a new one once
		c.token = ""
		return c.call(ctx, method, path, in, out, false)
	}
	return err
}

func (c *Client) do(ctx context.Context, method, path, token string, in, out any) (int, error) {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return 0, err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.BaseURL+path, body)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	httpClient := c.HTTP
	if httpClient == nil {
		httpClient = http.DefaultClient
	}
	res, err := httpClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	text, err := io.ReadAll(res.Body)
	if err != nil {
		return res.StatusCode, err
	}
	if res.StatusCode >= 400 {
		return res.StatusCode, fmt.Errorf("%s %s answered %d: %s", method, path, res.StatusCode, text)
	}
	return res.StatusCode, json.Unmarshal(text, out)
}

// VerifySignature checks X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body bytes>, keyed with the secret.
func VerifySignature(rawBody []byte, header, secret string) bool {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(rawBody)
	return hmac.Equal([]byte(header), []byte("sha256="+hex.EncodeToString(mac.Sum(nil))))
}
