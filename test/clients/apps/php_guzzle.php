<?php
require '/usr/share/php/GuzzleHttp/autoload.php'; // Debian's php-guzzlehttp-guzzle (Composer's vendor/autoload.php elsewhere)

$client = new GuzzleHttp\Client(['timeout' => 30]);
$charge = ['amount' => 49.9, 'description' => 'Pedido 1'];
$res = $client->post('https://api.pague.dev/v1/pix', ['json' => $charge, 'headers' => ['X-API-Key' => getenv('APP_API_KEY')]]);
echo 'v1 ', $res->getStatusCode(), ' ', json_decode((string) $res->getBody(), true)['id'], "\n";
$auth = json_decode((string) $client->post('https://api-gateway.pague.dev/v2/auth', ['json' => ['client_id' => getenv('APP_CLIENT_ID'), 'client_secret' => getenv('APP_CLIENT_SECRET')]])->getBody(), true);
$res = $client->post('https://api-gateway.pague.dev/v2/pix', ['json' => $charge, 'headers' => ['Authorization' => "Bearer {$auth['access_token']}"]]);
echo 'v2 ', $res->getStatusCode(), ' ', json_decode((string) $res->getBody(), true)['id'], "\n";
$pix = getenv('APP_PIX_URL');
$auth = json_decode((string) $client->post("$pix/oauth/token", ['auth' => [getenv('APP_CLIENT_ID'), getenv('APP_CLIENT_SECRET')], 'form_params' => ['grant_type' => 'client_credentials']])->getBody(), true);
$cob = ['calendario' => ['expiracao' => 3600], 'valor' => ['original' => '123.45'], 'chave' => '8d2a6c1e-4b7f-4e3a-9c5d-1f0e2b3a4c5d'];
$res = $client->put("$pix/v2/cob/" . getenv('APP_TXID'), ['json' => $cob, 'headers' => ['Authorization' => "Bearer {$auth['access_token']}"]]);
echo 'cob ', $res->getStatusCode(), ' ', json_decode((string) $res->getBody(), true)['status'], "\n";
