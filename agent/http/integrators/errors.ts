/**
 * One error shape for every answer of the integrator API that is not a success:
 * `{code, message, errors?}`. `message` names what was wrong, where, and what would be right;
 * `code` is stable for programs; `errors` lists each offending field of a body or header.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { FieldError } from '#core/parse';
import type { ErrorBody, ErrorCode } from './responses.ts';

/** The contract's exact texts (section 7). */
export const DUPLICATE_MESSAGE = 'Could not create resource. Id already exists';
export const NOT_FOUND_MESSAGE = 'Could not update. No resource found';

/** An answer to send instead of a success; thrown anywhere in a route or hook. */
export class ApiError extends Error {
	constructor(
		readonly statusCode: number,
		readonly code: ErrorCode,
		message: string,
		readonly errors?: FieldError[]
	) {
		super(message);
	}

	body(): ErrorBody {
		return this.errors
			? { code: this.code, message: this.message, errors: this.errors }
			: { code: this.code, message: this.message };
	}
}

/** 404 for an order that is live on none of `screenIds` (an update, or a takeout notification). */
export function orderNotOnScreens(orderId: string, screenIds: string[]): ApiError {
	return new ApiError(
		404,
		'ORDER_DOES_NOT_EXIST',
		NOT_FOUND_MESSAGE,
		screenIds.map((screen) => ({
			path: 'id',
			message: `order ${JSON.stringify(orderId)} is not on screen ${screen}`
		}))
	);
}

/** 422 for a body that is JSON but breaks the schema; the message names every field. */
export function validationError(errors: FieldError[], message: string): ApiError {
	return new ApiError(422, 'VALIDATION_FAILED', message, errors);
}

// Fastify's JSON parser does not pass on where the JSON broke.
const INVALID_JSON_MESSAGE =
	'body: not valid JSON; send one JSON object (check quotes, commas and brackets)';

/**
 * A body that is not JSON because the client compressed it (`Content-Encoding: gzip`): the
 * answer names the header, not the JSON (RFC 9110: 415 for a content coding not supported).
 * A body labelled so that parses as JSON anyway is taken as it is.
 */
function notJson(req: FastifyRequest): ApiError {
	const coding = req.headers['content-encoding']?.trim();
	if (coding && coding.toLowerCase() !== 'identity') {
		return new ApiError(
			415,
			'UNSUPPORTED_MEDIA_TYPE',
			`Content-Encoding: ${JSON.stringify(coding)} is not supported; send the JSON body uncompressed`
		);
	}
	return new ApiError(400, 'INVALID_JSON', INVALID_JSON_MESSAGE);
}

/**
 * What to do about a wrong Content-Type where the usual cause is known: a form type is what
 * `curl -d`, PHP's curl with a string body and Java's HttpURLConnection send unless told
 * otherwise, with the JSON body intact; `text/plain;charset=UTF-8` is fetch's and
 * XMLHttpRequest's for a string body; `multipart/form-data` is PHP's curl given the order array
 * itself (CURLOPT_POSTFIELDS => $order); no type at all, a hand-made request. Found by the client
 * zoo (tests/clients).
 */
function contentTypeHint(got: string | undefined): string {
	const add = '; add the header Content-Type: application/json';
	if (got === undefined || got.trim() === '') return add;
	const type = /^\s*([^;\s]*)/.exec(got)?.[1].toLowerCase();
	if (type === 'application/x-www-form-urlencoded')
		return ` (what curl -d, PHP's curl and Java's HttpURLConnection send unless told otherwise)${add}`;
	if (type === 'text/plain')
		return ` (what fetch and XMLHttpRequest send with a string body unless told otherwise)${add}`;
	if (type === 'multipart/form-data')
		return " (what PHP's curl sends when CURLOPT_POSTFIELDS is given an array); send json_encode() of the order as the body with the header Content-Type: application/json";
	return '; send the body as JSON with the header Content-Type: application/json';
}

/** Fastify's own refusals (body parsing and limits) in the one shape, same status everywhere. */
function fromFastify(err: FastifyError, req: FastifyRequest, bodyLimit: number): ApiError {
	switch (err.code) {
		case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': {
			const got = req.headers['content-type'];
			return new ApiError(
				415,
				'UNSUPPORTED_MEDIA_TYPE',
				`Content-Type: expected application/json, got ${got ? JSON.stringify(got) : 'none'}${contentTypeHint(got)}`
			);
		}
		case 'FST_ERR_CTP_BODY_TOO_LARGE':
			return new ApiError(
				413,
				'PAYLOAD_TOO_LARGE',
				`body: larger than the limit of ${bodyLimit} bytes`
			);
		case 'FST_ERR_CTP_EMPTY_JSON_BODY':
			return new ApiError(400, 'INVALID_JSON', 'body: empty; expected a JSON object');
		case 'FST_ERR_CTP_INVALID_JSON_BODY':
			return notJson(req);
	}
	if (err instanceof SyntaxError || err.name === 'SyntaxError') return notJson(req);
	const status = err.statusCode ?? 500;
	if (status >= 400 && status < 500) return new ApiError(status, 'BAD_REQUEST', err.message);
	return new ApiError(
		500,
		'INTERNAL_ERROR',
		'Internal error: the request changed nothing; try again'
	);
}

export function createErrorHandler(bodyLimit: number) {
	return function integratorErrorHandler(
		err: FastifyError,
		req: FastifyRequest,
		reply: FastifyReply
	) {
		const api = err instanceof ApiError ? err : fromFastify(err, req, bodyLimit);
		if (api.statusCode >= 500) req.log.error({ err }, 'integrator API request failed');
		else req.log.debug({ status: api.statusCode, code: api.code }, api.message);
		return reply.code(api.statusCode).send(api.body());
	};
}
