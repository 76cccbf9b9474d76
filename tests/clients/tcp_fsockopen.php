<?php
// A POS in PHP on the screen's TCP port, the way PHP does a raw socket: fsockopen, fwrite the
// json_encode()d message (no newline), fread the reply, fwrite the next one on the same
// connection, fclose. Times as PHP takes them: round(microtime(true) * 1000) milliseconds.
// usage: php tcp_fsockopen.php HOST PORT ORDER_ID
// Prints one JSON object: {"replies": [...], "sent": ms}.
[, $host, $port, $id] = $argv;

$fp = fsockopen($host, (int) $port, $errno, $errstr, 5);
if (!$fp) {
	fwrite(STDERR, "fsockopen: $errstr ($errno)\n");
	exit(1);
}
stream_set_timeout($fp, 10);

function send($fp, array $message): string
{
	fwrite($fp, json_encode($message));
	// One fread: what arrived so far, up to 8192 bytes (the reply is a short line).
	$reply = fread($fp, 8192);
	if (stream_get_meta_data($fp)['timed_out']) return 'TIMED OUT';
	return $reply;
}

$ms = round(microtime(true) * 1000);
$replies = [];
$replies[] = send($fp, [
	'command' => 'create-order',
	'order' => [
		'id' => $id,
		'name' => 'Ñandú 🍕 / PHP',
		'time' => $ms,
		'mode' => 'For Here',
		'server' => null,
		'items' => [
			['lineId' => '1', 'name' => 'Pizza Margherita', 'qty' => 1, 'mods' => ['Extra basilico', 'Sin gluten']],
		],
	],
]);
$replies[] = send($fp, ['command' => 'create-order', 'order' => ['id' => $id, 'name' => 'again', 'time' => $ms, 'mode' => 'For Here', 'items' => []]]);
$replies[] = send($fp, ['command' => 'partial-update-order', 'order' => ['id' => $id, 'priority' => true, 'itemsToAdd' => [['lineId' => '2', 'name' => 'Tiramisù', 'qty' => 2, 'mods' => []]]]]);
// An empty PHP array meant as an object: json_encode writes it as [].
$replies[] = send($fp, ['command' => 'create-order', 'order' => ['id' => "$id-costs", 'name' => 'Costs', 'time' => $ms, 'mode' => 'For Here', 'costs' => [], 'items' => []]]);
fclose($fp);
echo json_encode(['replies' => $replies, 'sent' => $ms], JSON_UNESCAPED_UNICODE), "\n";
