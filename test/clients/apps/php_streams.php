<?php
// file_get_contents with a stream context, as many small shops and older SDKs call an API.
function call(string $method, string $url, array $headers, string $body): array
{
    $context = stream_context_create(['http' => ['method' => $method, 'header' => implode("\r\n", $headers), 'content' => $body, 'ignore_errors' => true, 'timeout' => 30]]);
    $answer = file_get_contents($url, false, $context);
    if ($answer === false) { fwrite(STDERR, "could not call $url\n"); exit(1); }
    return json_decode($answer, true);
}
$json = 'Content-Type: application/json';
$charge = json_encode(['amount' => 49.9, 'description' => 'Pedido 1']);
$body = call('POST', 'https://api.pague.dev/v1/pix', [$json, 'X-API-Key: ' . getenv('APP_API_KEY')], $charge);
echo 'v1 ', isset($body['id']) ? 'created' : 'failed', " {$body['id']}\n";
$auth = call('POST', 'https://api-gateway.pague.dev/v2/auth', [$json], json_encode(['client_id' => getenv('APP_CLIENT_ID'), 'client_secret' => getenv('APP_CLIENT_SECRET')]));
$body = call('POST', 'https://api-gateway.pague.dev/v2/pix', [$json, "Authorization: Bearer {$auth['access_token']}"], $charge);
echo 'v2 ', isset($body['id']) ? 'created' : 'failed', " {$body['id']}\n";
$pix = getenv('APP_PIX_URL');
$basic = base64_encode(getenv('APP_CLIENT_ID') . ':' . getenv('APP_CLIENT_SECRET'));
$auth = call('POST', "$pix/oauth/token", ["Authorization: Basic $basic", 'Content-Type: application/x-www-form-urlencoded'], 'grant_type=client_credentials');
$cob = json_encode(['calendario' => ['expiracao' => 3600], 'valor' => ['original' => '123.45'], 'chave' => '8d2a6c1e-4b7f-4e3a-9c5d-1f0e2b3a4c5d']);
$body = call('PUT', "$pix/v2/cob/" . getenv('APP_TXID'), [$json, "Authorization: Bearer {$auth['access_token']}"], $cob);
echo 'cob ', isset($body['txid']) ? 'created' : 'failed', " {$body['status']}\n";
