import { describe, expect, it } from 'vitest';
import { isHttpUrl } from './url.ts';

describe('isHttpUrl', () => {
	it.each([
		'http://pos.example/callback',
		'https://pos.example:8443/cb?token=s3cret',
		'http://127.0.0.1:9/x',
		'HTTPS://POS.EXAMPLE'
	])('takes %s', (url) => expect(isHttpUrl(url)).toBe(true));

	it.each([
		'ftp://pos.example/x',
		'javascript:alert(1)',
		'/relative/path',
		'pos.example/callback',
		'http://',
		'file:///etc/passwd',
		''
	])('refuses %j', (url) => expect(isHttpUrl(url)).toBe(false));
});
