package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
)

func call(method, target, kind, body string, headers map[string]string, user ...string) (int, map[string]any) {
	req, _ := http.NewRequest(method, target, strings.NewReader(body))
	req.Header.Set("Content-Type", kind)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	if len(user) == 2 {
		req.SetBasicAuth(user[0], user[1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	defer res.Body.Close()
	var out map[string]any
	json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

func main() {
	charge := `{"amount":49.9,"description":"Pedido 1"}`
	status, body := call("POST", "https://api.pague.dev/v1/pix", "application/json", charge, map[string]string{"X-API-Key": os.Getenv("APP_API_KEY")})
	fmt.Println("v1", status, body["id"])
	id, secret := os.Getenv("APP_CLIENT_ID"), os.Getenv("APP_CLIENT_SECRET")
	auth, _ := json.Marshal(map[string]string{"client_id": id, "client_secret": secret})
	_, token := call("POST", "https://api-gateway.pague.dev/v2/auth", "application/json", string(auth), nil)
	status, body = call("POST", "https://api-gateway.pague.dev/v2/pix", "application/json", charge, map[string]string{"Authorization": fmt.Sprint("Bearer ", token["access_token"])})
	fmt.Println("v2", status, body["id"])
	pix := os.Getenv("APP_PIX_URL")
	form := url.Values{"grant_type": {"client_credentials"}}.Encode()
	_, token = call("POST", pix+"/oauth/token", "application/x-www-form-urlencoded", form, nil, id, secret)
	cob := `{"calendario":{"expiracao":3600},"valor":{"original":"123.45"},"chave":"8d2a6c1e-4b7f-4e3a-9c5d-1f0e2b3a4c5d"}`
	status, body = call("PUT", pix+"/v2/cob/"+os.Getenv("APP_TXID"), "application/json", cob, map[string]string{"Authorization": fmt.Sprint("Bearer ", token["access_token"])})
	fmt.Println("cob", status, body["status"])
}
