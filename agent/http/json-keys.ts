/**
 * What the HTTP JSON parser does with a `__proto__` or `constructor.prototype` key in a body.
 *
 * Such a body is valid JSON, so it is never answered "not valid JSON" (Fastify's default refuses
 * it as a syntax error). JSON.parse makes the key an own data property: it sets no prototype and
 * pollutes nothing. Every body then goes through a schema that copies only the fields it knows,
 * so the key is dropped like any unknown field, and the inspector reports it as one
 * (KDS-FIELD-UNKNOWN), exactly as over TCP, whose messages JSON.parse reads the same way.
 */
export const JSON_KEY_POLICY = 'ignore' as const;
