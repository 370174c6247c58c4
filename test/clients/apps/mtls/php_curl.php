<?php
// The PSP's client certificate (PEM files) from the app's configuration.
function call(string $method, string $url, array $headers, string $body): array
{
    $ch = curl_init($url);
    curl_setopt_array($ch, [
        CURLOPT_RETURNTRANSFER => true, CURLOPT_CUSTOMREQUEST => $method, CURLOPT_HTTPHEADER => $headers, CURLOPT_POSTFIELDS => $body, CURLOPT_TIMEOUT => 30,
        CURLOPT_SSLCERT => getenv('APP_CLIENT_CERT'), CURLOPT_SSLKEY => getenv('APP_CLIENT_KEY'),
    ]);
    $answer = curl_exec($ch);
    if ($answer === false) { fwrite(STDERR, "curl error: " . curl_error($ch) . "\n"); exit(1); }
    return [curl_getinfo($ch, CURLINFO_RESPONSE_CODE), json_decode($answer, true)];
}
$pix = getenv('APP_PIX_URL');
$basic = base64_encode(getenv('APP_CLIENT_ID') . ':' . getenv('APP_CLIENT_SECRET'));
[, $auth] = call('POST', "$pix/oauth/token", ["Authorization: Basic $basic", 'Content-Type: application/x-www-form-urlencoded'], 'grant_type=client_credentials');
$cob = json_encode(['calendario' => ['expiracao' => 3600], 'valor' => ['original' => '123.45'], 'chave' => '8d2a6c1e-4b7f-4e3a-9c5d-1f0e2b3a4c5d']);
[$status, $body] = call('PUT', "$pix/v2/cob/" . getenv('APP_TXID'), ['Content-Type: application/json', "Authorization: Bearer {$auth['access_token']}"], $cob);
echo "cob $status {$body['status']}\n";
