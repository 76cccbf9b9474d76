// A POS that keeps one TCP connection to the screen open and writes one JSON object per line,
// the way Node's `net` module is used by default. Reads one reply line per message.
//
// usage: node net_persistent.mjs HOST PORT ORDER_ID
// Prints one JSON object: {sent, replies}.
import { connect } from 'node:net';
import { createInterface } from 'node:readline';

const [host, port, id] = process.argv.slice(2);
const time = new Date().toISOString();
const messages = [
	{
		command: 'create-order',
		order: {
			id,
			name: 'Node net',
			time,
			mode: 'Delivery',
			terminal: 'till-2',
			loyaltyTier: 'gold', // not in the contract
			items: [{ lineId: '1', name: 'Pad Thai', qty: 1, mods: ['Mild'], components: [] }]
		}
	},
	{
		command: 'partial-update-order',
		order: { id, priority: true, specialInstructions: null, itemsToAdd: [] }
	},
	{ command: 'partial-update-order', order: { id: `${id}-missing`, priority: true } }
];

const socket = connect({ host, port: Number(port) });
socket.setEncoding('utf8');
const lines = createInterface({ input: socket });
const replies = [];
socket.on('connect', async () => {
	// Write one, wait for its reply, write the next: the connection stays open throughout.
	for (const message of messages) {
		socket.write(`${JSON.stringify(message)}\n`);
		const [line] = await new Promise((resolve) => lines.once('line', (l) => resolve([l])));
		replies.push(line);
	}
	socket.end();
	console.log(JSON.stringify({ sent: time, replies }));
});
socket.on('error', (err) => {
	console.error(`net_persistent: ${err.message}`);
	process.exit(1);
});
