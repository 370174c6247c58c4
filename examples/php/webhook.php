<?php
// The app's webhook endpoint (served here by `php -S`): verify the signature over the raw body before parsing it,
// answer 401 to a bad one, handle the event once per X-Service-Webhook-ID. This one records each event on a line of
// the file WEBHOOK_LOG, for the test to read.
declare(strict_types=1);
require __DIR__ . '/PixApi.php';

$raw = file_get_contents('php://input');
if (!verifySignature($raw, $_SERVER['HTTP_X_SERVICE_SIGNATURE'] ?? null, getenv('WEBHOOK_SECRET'))) {
    http_response_code(401);
    exit;
}
$event = json_decode($raw, true, 512, JSON_THROW_ON_ERROR);
file_put_contents(getenv('WEBHOOK_LOG'), json_encode(['id' => $_SERVER['HTTP_X_SERVICE_WEBHOOK_ID'], 'event' => $event]) . "\n", FILE_APPEND | LOCK_EX);
http_response_code(200);
