<?php
require '/usr/share/php/GuzzleHttp/autoload.php'; // Debian's php-guzzlehttp-guzzle (Composer's vendor/autoload.php elsewhere)

// The PSP's client certificate (PEM files) from the app's configuration.
$client = new GuzzleHttp\Client(['base_uri' => getenv('APP_PIX_URL'), 'timeout' => 30, 'cert' => getenv('APP_CLIENT_CERT'), 'ssl_key' => getenv('APP_CLIENT_KEY')]);
$auth = json_decode((string) $client->post('/oauth/token', ['auth' => [getenv('APP_CLIENT_ID'), getenv('APP_CLIENT_SECRET')], 'form_params' => ['grant_type' => 'client_credentials']])->getBody(), true);
$cob = ['calendario' => ['expiracao' => 3600], 'valor' => ['original' => '123.45'], 'chave' => '8d2a6c1e-4b7f-4e3a-9c5d-1f0e2b3a4c5d'];
$res = $client->put('/v2/cob/' . getenv('APP_TXID'), ['json' => $cob, 'headers' => ['Authorization' => "Bearer {$auth['access_token']}"]]);
echo 'cob ' . $res->getStatusCode() . ' ' . json_decode((string) $res->getBody(), true)['status'] . "\n";
