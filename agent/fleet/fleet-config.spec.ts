/** The config's `remote` screens and `adoptDiscovered` locations (docs/fleet.md). */
import { describe, expect, it } from 'vitest';
import { parseConfig, withTcpOverrides } from '../config.ts';
import { readSettings } from '../cli/settings.ts';

const config = (screens: unknown[]) => ({
	brands: [
		{
			id: 'b1',
			name: 'Brand',
			token: 'brand-token-1',
			locations: [{ id: 'l1', name: 'Kitchen', screens }]
		}
	]
});

describe('remote screens in the config', () => {
	it('a remote screen names its own TCP endpoint and the other simulator it lives in', () => {
		const parsed = parseConfig(
			config([
				{ id: 'kds-1', name: 'Grill', tcp: { port: 9104 } },
				{
					id: 'pi-1',
					name: 'Fryer',
					tcp: { host: '192.168.1.50', port: 9104 },
					remote: { url: 'http://192.168.1.50:8104', screen: 'kds-1' }
				}
			])
		);
		const [, remote] = parsed.brands[0].locations[0].screens;
		expect(remote.remote).toEqual({ url: 'http://192.168.1.50:8104', screen: 'kds-1' });
		expect(parsed.brands[0].locations[0].adoptDiscovered).toBe(false);
	});

	it('a URL that is not http(s) is refused naming the field', () => {
		expect(() =>
			parseConfig(
				config([
					{ id: 'pi-1', name: 'Fryer', tcp: { port: 9104 }, remote: { url: 'pi.local:8104' } }
				])
			)
		).toThrow(
			'Invalid config: brands[0].locations[0].screens[0].remote.url: expected an http:// or https:// URL, got "pi.local:8104"'
		);
	});

	it('a remote endpoint may equal a local one (another host listens there); --tcp-port leaves it alone', () => {
		const parsed = parseConfig(
			config([
				{ id: 'kds-1', name: 'Grill', tcp: { host: '127.0.0.1', port: 9104 } },
				{
					id: 'pi-1',
					name: 'Fryer',
					tcp: { host: '127.0.0.1', port: 9104 },
					remote: { url: 'http://127.0.0.1:8200' }
				}
			])
		);
		const moved = withTcpOverrides(parsed, '0.0.0.0', 0);
		expect(moved.brands[0].locations[0].screens.map((s) => s.tcp)).toEqual([
			{ host: '0.0.0.0', port: 0 },
			{ host: '127.0.0.1', port: 9104 }
		]);
	});
});

describe('discovery listening flags', () => {
	it('off by default; --adopt-discovered listens on 0.0.0.0:28000 unless told where', () => {
		expect(readSettings([], {}).discoveryListen).toBeNull();
		expect(readSettings(['--adopt-discovered'], {}).discoveryListen).toEqual({
			adopt: true,
			httpPort: undefined,
			bind: undefined,
			port: undefined
		});
		expect(
			readSettings(
				[
					'--listen-discovery',
					'--listen-discovery-on',
					'127.0.0.1:28123',
					'--adopt-http-port',
					'8200'
				],
				{}
			).discoveryListen
		).toEqual({ adopt: false, httpPort: 8200, bind: '127.0.0.1', port: 28123 });
		expect(readSettings([], { KDS_ADOPT_DISCOVERED: '1' }).discoveryListen?.adopt).toBe(true);
	});

	it('a bad value is refused in one sentence', () => {
		expect(() => readSettings(['--listen-discovery-on', 'everywhere'], {})).toThrow(
			'Invalid value for --listen-discovery-on (KDS_LISTEN_DISCOVERY_ON): "everywhere" (expected one IPv4 host:port)'
		);
		expect(() => readSettings([], { KDS_ADOPT_DISCOVERED: 'yes' })).toThrow(
			'Invalid value for --adopt-discovered (KDS_ADOPT_DISCOVERED): "yes" (expected 1 or 0)'
		);
	});
});
