import { createHash } from 'node:crypto';

/** The hex SHA-256 of a text: how API keys, session ids, OAuth states and request bodies are stored and compared. */
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');
