<?php
// The app under test: its own client of the service's v2 API (curl, no Composer) and its webhook check. Nothing here
// knows about the sandbox; in production the same code gets the real base URL.
declare(strict_types=1);

final class PixApi
{
    private ?string $token = null;

    /** @param array $curlOptions e.g. [CURLOPT_CAINFO => $caPath] to trust a local CA */
    public function __construct(
        private string $baseUrl,
        private string $clientId,
        private string $clientSecret,
        private array $curlOptions = [],
    ) {
    }

    public function createCharge(float $amount, string $description, array $fields = []): array
    {
        return $this->call('POST', '/pix', ['amount' => $amount, 'description' => $description] + $fields);
    }

    public function getCharge(string $id): array
    {
        return $this->call('GET', '/transactions/' . rawurlencode($id));
    }

    private function call(string $method, string $path, ?array $body = null, bool $retry = true): array
    {
        $this->token ??= httpJson('POST', $this->baseUrl . '/auth', ['client_id' => $this->clientId, 'client_secret' => $this->clientSecret], [], $this->curlOptions)[1]['access_token'];
        [$status, $answer] = httpJson($method, $this->baseUrl . $path, $body, ["Authorization: Bearer {$this->token}"], $this->curlOptions);
        if ($status === 401 && $retry) { // a token lives 300 s: take a new one once
            $this->token = null;
            return $this->call($method, $path, $body, false);
        }
        if ($status >= 400) {
            throw new RuntimeException("$method $path answered $status: " . json_encode($answer));
        }
        return $answer;
    }
}

/** One JSON call with curl; returns [status, decoded body]. */
function httpJson(string $method, string $url, ?array $body = null, array $headers = [], array $curlOptions = []): array
{
    $ch = curl_init($url);
    curl_setopt_array($ch, $curlOptions + [
        CURLOPT_CUSTOMREQUEST => $method,
        CURLOPT_RETURNTRANSFER => true,
        CURLOPT_TIMEOUT => 30,
        CURLOPT_HTTPHEADER => array_merge(['Content-Type: application/json'], $headers),
    ]);
    if ($body !== null) {
        curl_setopt($ch, CURLOPT_POSTFIELDS, json_encode($body));
    }
    $text = curl_exec($ch);
    if ($text === false) {
        throw new RuntimeException("$method $url: " . curl_error($ch));
    }
    $status = curl_getinfo($ch, CURLINFO_RESPONSE_CODE);
    curl_close($ch);
    return [$status, $text === '' ? [] : json_decode($text, true, 512, JSON_THROW_ON_ERROR)];
}

/** X-Service-Signature is sha256=<hex HMAC-SHA256 of the raw body bytes>, keyed with the endpoint's secret. */
function verifySignature(string $rawBody, ?string $header, string $secret): bool
{
    return hash_equals('sha256=' . hash_hmac('sha256', $rawBody, $secret), $header ?? '');
}
