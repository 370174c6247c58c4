package main

import (
	"crypto/tls"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
)

func main() {
	// The PSP's client certificate (PEM files) from the app's configuration.
	cert, err := tls.LoadX509KeyPair(os.Getenv("APP_CLIENT_CERT"), os.Getenv("APP_CLIENT_KEY"))
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyFromEnvironment, TLSClientConfig: &tls.Config{Certificates: []tls.Certificate{cert}}}}
	call := func(req *http.Request) (int, map[string]any) {
		res, err := client.Do(req)
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		defer res.Body.Close()
		var out map[string]any
		json.NewDecoder(res.Body).Decode(&out)
		return res.StatusCode, out
	}
	pix := os.Getenv("APP_PIX_URL")
	req, _ := http.NewRequest("POST", pix+"/oauth/token", strings.NewReader(url.Values{"grant_type": {"client_credentials"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(os.Getenv("APP_CLIENT_ID"), os.Getenv("APP_CLIENT_SECRET"))
	_, token := call(req)
	cob := `{"calendario":{"expiracao":3600},"valor":{"original":"123.45"},"chave":"8d2a6c1e-4b7f-4e3a-9c5d-1f0e2b3a4c5d"}`
	req, _ = http.NewRequest("PUT", pix+"/v2/cob/"+os.Getenv("APP_TXID"), strings.NewReader(cob))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", fmt.Sprint("Bearer ", token["access_token"]))
	status, body := call(req)
	fmt.Println("cob", status, body["status"])
}
