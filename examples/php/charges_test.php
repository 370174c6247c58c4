<?php
// PHP recipe (PHP 8.2 CLI + curl, no Composer, no PHPUnit): one pix-sandbox process (--port 0, address from its
// --ready-json line), a tenant of our own, and a webhook receiver of our own. Run: php charges_test.php
// (PIX_SANDBOX_CLI: the sandbox's cli.js). Exits 1 on the first failed check.
declare(strict_types=1);
require __DIR__ . '/PixApi.php';

function check(bool $ok, string $what): void
{
    if (!$ok) {
        throw new RuntimeException("FAILED: $what");
    }
    echo "ok - $what\n";
}

// The sandbox: started as a process; its first stdout line says where it listens.
$cli = getenv('PIX_SANDBOX_CLI') ?: dirname(__DIR__, 2) . '/dist/cli.js';
$process = proc_open(['node', $cli, '--port', '0', '--ready-json'], [1 => ['pipe', 'w']], $pipes);
$line = fgets($pipes[1]);
if ($line === false) {
    fwrite(STDERR, "pix-sandbox exited before its ready line\n");
    exit(1);
}
$ready = json_decode($line, true, 512, JSON_THROW_ON_ERROR);
$tls = isset($ready['ca']) ? [CURLOPT_CAINFO => $ready['ca']] : []; // under --https: trust the sandbox's CA
$control = fn (string $method, string $path, ?array $body = null) => httpJson($method, $ready['controlUrl'] . $path, $body, [], $tls)[1];

// Our webhook endpoint, webhook.php, served by PHP's own server on a free port (it prints the port on stderr).
$secret = 'whsec_' . bin2hex(random_bytes(16));
$webhookLog = tempnam(sys_get_temp_dir(), 'webhooks');
$server = proc_open([PHP_BINARY, '-S', '127.0.0.1:0', __DIR__ . '/webhook.php'], [2 => ['pipe', 'w']], $serverPipes, null, ['WEBHOOK_SECRET' => $secret, 'WEBHOOK_LOG' => $webhookLog]);
preg_match('~\(http://([\d.:]+)\) started~', fgets($serverPipes[2]), $m);
$webhookUrl = "http://{$m[1]}/webhooks";
/** The events webhook.php accepted (signature valid), in order. */
$received = fn () => array_map(fn ($l) => json_decode($l, true)['event'], file($webhookLog, FILE_IGNORE_NEW_LINES));

try {
    $tenant = $control('POST', '/accounts', ['name' => 'php recipe', 'webhooks' => [['url' => $webhookUrl, 'secret' => $secret]]]);
    $credential = $tenant['credentials'][0];
    $api = new PixApi($ready['v2Url'], $credential['clientId'], $credential['clientSecret'], $tls);

    // A paid charge sends a signed payment_completed.
    $charge = $api->createCharge(25.90, 'Pedido 42');
    check($charge['status'] === 'pending', 'a new charge is pending');
    $control('POST', "/transactions/{$charge['id']}/pay", ['payerName' => 'Ana Souza']); // what the bank would do
    check($control('POST', '/settle') === ['settled' => true], 'settle: every delivery went out');
    $event = $received()[0] ?? null;
    check($event['event'] === 'payment_completed' && $event['data']['transactionId'] === $charge['id'], 'webhook.php got a signed payment_completed of our charge');
    check(httpJson('POST', $webhookUrl, ['event' => 'payment_completed'], ['X-Service-Signature: sha256=0'])[0] === 401, 'webhook.php refuses a wrong signature');
    check($api->getCharge($charge['id'])['status'] === 'completed', 'the charge is completed');

    // A charge expires when the clock passes its expiry.
    $short = $api->createCharge(20.00, 'Pedido 43', ['expiresIn' => 300]);
    $control('POST', '/clock/advance', ['seconds' => 301]);
    check($api->getCharge($short['id'])['status'] === 'cancelled', 'a charge 301 s past its expiresIn is cancelled');

    // The magic CPF 00000000191 pays the charge 5 s after creation.
    $magic = $api->createCharge(100.00, 'Pedido 44', ['customer' => ['name' => 'Ana Souza', 'document' => '00000000191']]);
    $control('POST', '/clock/advance', ['seconds' => 5]);
    $paid = $api->getCharge($magic['id']);
    check($paid['status'] === 'completed' && $paid['counterpartDocument'] === '00000000191', 'the magic CPF paid the charge');
    echo "all passed\n";
} catch (Throwable $e) {
    fwrite(STDERR, $e->getMessage() . "\n");
    $failed = true;
} finally {
    foreach ([$process, $server] as $p) {
        proc_terminate($p);
        proc_close($p);
    }
    unlink($webhookLog);
}
exit(isset($failed) ? 1 : 0);
