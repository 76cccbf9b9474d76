<?php
// A PHP POS plugin posting orders with the cURL extension, as such plugins are written:
// CURLOPT_POSTFIELDS a json_encode()d array (default flags: "/" escaped as "\/", non-ASCII as
// \uXXXX, an empty array as [] even where an object is meant), times from date('c').
// usage: php http_curl.php BASE_URL TOKEN ORDER_ID
// Prints one JSON object per request: {"step", "status", "sentType", "sent", "body"}.
[, $base, $token, $id] = $argv;
// The plugin sets its shop's zone (PHP itself does not read TZ).
date_default_timezone_set(getenv('TZ') ?: 'UTC');

function call(string $step, string $method, string $path, $body, bool $json = true, bool $encode = true): void
{
	global $base, $token;
	$headers = ['x-integration-token: ' . $token, 'x-location-id: loc-1', 'x-device-ids: kds-1'];
	// The first request forgets the header, as a plugin's first draft does.
	if ($json && $encode) $headers[] = 'Content-Type: application/json';
	$ch = curl_init(rtrim($base, '/') . $path);
	curl_setopt($ch, CURLOPT_RETURNTRANSFER, true);
	curl_setopt($ch, CURLOPT_CUSTOMREQUEST, $method);
	curl_setopt($ch, CURLOPT_HTTPHEADER, $headers);
	curl_setopt($ch, CURLOPT_TIMEOUT, 30);
	curl_setopt($ch, CURLINFO_HEADER_OUT, true);
	$sent = null;
	if ($body !== null) {
		$sent = $encode ? json_encode($body) : $body;
		curl_setopt($ch, CURLOPT_POSTFIELDS, $sent);
	}
	$text = curl_exec($ch);
	if ($text === false) {
		fwrite(STDERR, "$step: " . curl_error($ch) . "\n");
		exit(1);
	}
	$status = curl_getinfo($ch, CURLINFO_RESPONSE_CODE);
	preg_match('/^content-type: *(.*?)\r?$/mi', (string) curl_getinfo($ch, CURLINFO_HEADER_OUT), $m);
	echo json_encode([
		'step' => $step,
		'status' => $status,
		'sentType' => $m[1] ?? null,
		'sent' => is_string($sent) ? substr($sent, 0, 300) : $sent,
		'body' => json_decode($text, true),
	], JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE), "\n";
}

$time = date('c');
echo json_encode(['step' => 'time', 'sent' => $time, 'epoch' => strtotime($time)]), "\n";
$order = [
	'id' => $id,
	'name' => 'Zoë Ñúñez 🍔',
	'time' => $time,
	'mode' => 'ToGo',
	'pickupTime' => null,
	'phoneNumber' => null,
	// About 88 KB: a plugin that copies the checkout's comment box as it is.
	'specialInstructions' => 'Alergia: nueces/sésamo, see https://shop.example/allergens ' . str_repeat('Ring the bell twice. ', 4200),
	'items' => [
		[
			'lineId' => '1',
			'name' => 'Crème brûlée',
			'qty' => 2,
			'price' => '$12.50',
			'mods' => [['name' => 'Piña 🍍', 'qty' => 2], ['name' => 'Sin azúcar']],
		],
		['lineId' => '2', 'name' => 'Café con leche ☕', 'qty' => 1, 'mods' => [], 'seat' => null],
	],
];
call('no-header', 'POST', '/integrators/kds-orders', $order, false);
// The order array itself as CURLOPT_POSTFIELDS: curl sends multipart/form-data.
call('postfields-array', 'POST', '/integrators/kds-orders', ['id' => "$id-form", 'name' => 'Form'], true, false);
call('create', 'POST', '/integrators/kds-orders', $order);
call('duplicate', 'POST', '/integrators/kds-orders', $order);

// A price as PHP holds it: a float, 12.5.
$float = $order;
$float['id'] = "$id-float";
$float['items'][0]['price'] = 12.5;
call('price-float', 'POST', '/integrators/kds-orders', $float);

// An empty PHP array meant as an object: json_encode writes [] for it.
$costs = $order;
$costs['id'] = "$id-costs";
$costs['costs'] = [];
call('costs-empty', 'POST', '/integrators/kds-orders', $costs);

// unset() leaves the keys as they were: json_encode then writes the items as an object {"1": …}.
$gaps = $order;
$gaps['id'] = "$id-gaps";
unset($gaps['items'][0]);
call('items-gaps', 'POST', '/integrators/kds-orders', $gaps);

call('partial', 'PUT', '/integrators/kds-orders/partial', [
	'id' => $id,
	'priority' => true,
	'itemsToAdd' => [['lineId' => '3', 'name' => 'Agua con gas', 'qty' => 1, 'mods' => []]],
]);
call('active', 'GET', '/integrators/kds-orders/active', null);
