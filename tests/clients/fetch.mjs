// A POS on the HTTP integrator API with Node's built-in fetch (undici), URLs made with
// new URL(path, base) from a base that ends in "/".
//
// usage: node fetch.mjs BASE_URL TOKEN ORDER_ID
// Prints one JSON object per request: {step, status, body}.
const [base, token, id] = process.argv.slice(2);
const auth = { 'x-integration-token': token, 'x-location-id': 'loc-1', 'x-device-ids': 'kds-1' };
const headers = { ...auth, 'content-type': 'application/json' };

async function call(step, method, path, body, { json = true } = {}) {
	try {
		const res = await fetch(new URL(path, base), {
			method,
			// Without the header, fetch labels a string body text/plain;charset=UTF-8.
			headers: json ? headers : auth,
			body: typeof body === 'string' ? body : body && JSON.stringify(body)
		});
		const text = await res.text();
		console.log(JSON.stringify({ step, status: res.status, body: text ? JSON.parse(text) : null }));
	} catch (err) {
		// "fetch failed": what an integrator would see if the reply never reached them.
		console.log(JSON.stringify({ step, error: `${err.message}: ${err.cause?.code ?? err.cause}` }));
	}
}

const time = new Date().toISOString();
await call('health', 'GET', 'health/');
console.log(JSON.stringify({ step: 'time', sent: time }));
// The header forgotten: the first draft of many integrations.
await call(
	'no-header',
	'POST',
	'integrators/kds-orders/',
	{ id, name: 'Node fetch' },
	{ json: false }
);
await call('create', 'POST', 'integrators/kds-orders/', {
	id,
	name: 'Node fetch',
	time,
	mode: 'Curbside',
	vehicleModel: null,
	items: [{ lineId: '1', name: 'Taco', qty: 3, mods: [{ name: 'Extra salsa', sku: 'S-1' }] }]
});
await call('devices', 'GET', 'integrators/kds-information/locations/loc-1/devices/');
await call('too-large', 'POST', 'integrators/kds-orders/', `{"id":"${'x'.repeat(8 << 20)}"}`);
await call('cancel', 'PUT', 'integrators/kds-orders/cancel/', { id, reason: 'customer left' });
