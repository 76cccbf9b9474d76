import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	DATAGRAM_BYTES,
	DATAGRAM_LAYOUT,
	decodeAnnouncement,
	encodeAnnouncement,
	utf8Cut
} from './discovery.ts';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
/** `text` as bytes, NUL-padded to `width`. */
const field = (text: string | number[], width: number) => {
	const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : Buffer.from(text);
	return Buffer.concat([bytes, Buffer.alloc(width - bytes.length)]);
};

describe('discovery datagram', () => {
	it('the layout is 12 + 8 + 10 + 20 + 52 = 102 bytes', () => {
		expect(DATAGRAM_LAYOUT.map((f) => f.width)).toEqual([12, 8, 10, 20, 52]);
		expect(DATAGRAM_BYTES).toBe(102);
	});

	it('encodes byte for byte: magic, version, raw IPv4, identifier, name, each NUL-padded', () => {
		const bytes = encodeAnnouncement({
			version: '2.21.30',
			address: '192.168.1.50',
			identifier: 'kds-1',
			name: 'Grill'
		});
		const expected = Buffer.concat([
			field('FreshKDS', 12),
			field('2.21.30', 8),
			field([192, 168, 1, 50], 10),
			field('kds-1', 20),
			field('Grill', 52)
		]);
		expect(bytes.length).toBe(102);
		expect(hex(bytes)).toBe(expected.toString('hex'));
		// The same bytes written out, so a change in the helper above cannot hide a change here.
		expect(hex(bytes.subarray(0, 30))).toBe(
			'46726573684b445300000000' + '322e32312e333000' + 'c0a80132000000000000'
		);
	});

	it('cuts every field to its width', () => {
		const bytes = encodeAnnouncement({
			version: '2.21.30-beta.7',
			address: '10.0.0.255',
			identifier: 'a-very-long-screen-identifier',
			name: 'N'.repeat(60)
		});
		expect(bytes.length).toBe(102);
		expect(Buffer.from(bytes.subarray(12, 20)).toString()).toBe('2.21.30-');
		expect([...bytes.subarray(20, 30)]).toEqual([10, 0, 0, 255, 0, 0, 0, 0, 0, 0]);
		expect(Buffer.from(bytes.subarray(30, 50)).toString()).toBe('a-very-long-screen-i');
		expect(Buffer.from(bytes.subarray(50, 102)).toString()).toBe('N'.repeat(52));
		expect(decodeAnnouncement(bytes)).toEqual({
			ok: true,
			value: {
				version: '2.21.30-',
				address: '10.0.0.255',
				identifier: 'a-very-long-screen-i',
				name: 'N'.repeat(52)
			}
		});
	});

	it('cuts a UTF-8 name on a character boundary, never inside one', () => {
		// 51 ASCII bytes then "é" (2 bytes): the é would end at byte 53, so it is left out.
		const name = `${'a'.repeat(51)}é`;
		const bytes = encodeAnnouncement({ version: '1', address: '127.0.0.1', identifier: 'x', name });
		expect(hex(bytes.subarray(50))).toBe(field('a'.repeat(51), 52).toString('hex'));
		// A 4-byte emoji at byte 50 of 52 does not fit: cut before it.
		expect([...utf8Cut(`${'b'.repeat(50)}🍔`, 52)]).toEqual([...Buffer.from('b'.repeat(50))]);
		expect(Buffer.from(utf8Cut('Grill – Küche 🍔', 52)).toString()).toBe('Grill – Küche 🍔');
	});

	it('refuses an address that is not dotted IPv4', () => {
		for (const address of ['::1', '256.0.0.1', 'localhost', '1.2.3']) {
			expect(() =>
				encodeAnnouncement({ version: '1', address, identifier: 'x', name: 'x' })
			).toThrow(`address: expected a dotted IPv4 address, got "${address}"`);
		}
	});

	it('decodes what a real screen sends, and refuses anything else with the reason', () => {
		const real = Buffer.concat([
			field('FreshKDS', 12),
			field('2.21.30', 8),
			field([192, 168, 0, 23], 10),
			field('A1B2C3', 20),
			field('Expo', 52)
		]);
		expect(decodeAnnouncement(real)).toEqual({
			ok: true,
			value: { version: '2.21.30', address: '192.168.0.23', identifier: 'A1B2C3', name: 'Expo' }
		});
		expect(decodeAnnouncement(real.subarray(0, 101))).toEqual({
			ok: false,
			error: 'expected 102 bytes, got 101'
		});
		const other = Buffer.from(real);
		other.write('FreshKDX', 0);
		expect(decodeAnnouncement(other)).toEqual({
			ok: false,
			error: 'expected the datagram to start with FreshKDS'
		});
	});

	it('round-trips any screen (property, seeded): 102 bytes, fields cut, never a broken character', () => {
		const octet = fc.integer({ min: 0, max: 255 });
		fc.assert(
			fc.property(
				fc.string({ unit: 'grapheme', maxLength: 30 }),
				fc.tuple(octet, octet, octet, octet),
				fc.string({ unit: 'binary', maxLength: 30 }),
				fc.string({ unit: 'grapheme', maxLength: 60 }),
				(version, ip, identifier, name) => {
					const address = ip.join('.');
					const bytes = encodeAnnouncement({ version, address, identifier, name });
					expect(bytes.length).toBe(102);
					const decoded = decodeAnnouncement(bytes);
					expect(decoded.ok).toBe(true);
					if (!decoded.ok) return;
					expect(decoded.value.address).toBe(address);
					for (const [sent, got] of [
						[version, decoded.value.version],
						[identifier, decoded.value.identifier],
						[name, decoded.value.name]
					]) {
						// What comes back is the start of what was sent (up to a NUL it held), whole characters.
						expect(sent.split('\0')[0].startsWith(got)).toBe(true);
						if (!sent.includes('\uFFFD')) expect(got).not.toContain('\uFFFD');
					}
				}
			),
			{ seed: 16, numRuns: 100 }
		);
	});
});
