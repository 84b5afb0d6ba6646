import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a delivery's webhook-timestamp may be from our clock: an older one is a replay (docs/api/webhooks.md). */
export const TOLERANCE_SECONDS = 5 * 60;

export type Refusal = 'no_secret' | 'missing_headers' | 'timestamp' | 'signature';

export type Verified = { ok: true; id: string; event: { type: string; timestamp: string; data: unknown } } | { ok: false; reason: Refusal };

type Headers = Record<string, string | string[] | undefined>;

const header = (headers: Headers, name: string): string | undefined => {
	const value = headers[name];
	return typeof value === 'string' ? value : undefined;
};

/**
 * Steps 1 to 4 of "Verifying deliveries": the signing key is the base64 after `whsec_`, decoded; the
 * signature is the base64 HMAC-SHA256 of `id.timestamp.` and the raw body, byte for byte (parsing and
 * re-serialising the JSON would change it); any `v1,` entry of the space-separated header may match
 * (a rolled secret signs beside the new one for a day), compared in constant time; a timestamp more
 * than 5 minutes from `nowMs` is refused. Node's crypto only: the package has no dependencies.
 */
export function verifyDelivery(secret: string, headers: Headers, rawBody: Buffer, nowMs: number): Verified {
	if (!secret.startsWith('whsec_')) return { ok: false, reason: 'no_secret' };
	const id = header(headers, 'webhook-id');
	const timestamp = header(headers, 'webhook-timestamp');
	const signatures = header(headers, 'webhook-signature');
	if (!id || !timestamp || !signatures) return { ok: false, reason: 'missing_headers' };
	if (!/^\d+$/.test(timestamp) || Math.abs(nowMs / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) return { ok: false, reason: 'timestamp' };
	const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
	const expected = Buffer.from(createHmac('sha256', key).update(`${id}.${timestamp}.`).update(rawBody).digest('base64'));
	const signed = signatures.split(' ').some((entry) => {
		const given = Buffer.from(entry.startsWith('v1,') ? entry.slice(3) : '');
		return given.length === expected.length && timingSafeEqual(given, expected);
	});
	if (!signed) return { ok: false, reason: 'signature' };
	return { ok: true, id, event: JSON.parse(rawBody.toString('utf8')) as { type: string; timestamp: string; data: unknown } };
}

/** What the sender is told when a delivery is refused: enough to debug a setup, nothing about the secret. */
export const REFUSALS: Record<Refusal, string> = {
	no_secret: 'The Subpilot credential has no webhook secret (whsec_…): deliveries cannot be verified',
	missing_headers: 'Missing webhook-id, webhook-timestamp or webhook-signature',
	timestamp: 'webhook-timestamp is more than 5 minutes from this clock',
	signature: 'No valid signature',
};
