import { postChat, type ChatClientOptions, type ChatOutcome } from '../../integrations/chat/chat.client.ts';
import type { MailMessage } from '../../integrations/mail/mail.client.ts';
import type { MailParts } from './destinations.formats.ts';
import { confirmationMail, withFooter } from './destinations.mail.ts';
import type { DestinationsTable } from './destinations.tables.ts';
import { tokenFor } from './destinations.tokens.ts';

/** The outbox row being sent: its id names the mail (Message-ID), its subject says what it is. */
export interface Outgoing {
  id: string;
  subject: string;
  message: unknown;
}

export type Send = (destination: DestinationsTable, address: string, outgoing: Outgoing) => Promise<ChatOutcome>;

/** A confirmation's outbox body: the mail is written when it is sent, so its link is never stored. */
export const CONFIRMATION = { confirmation: true };

export interface Channels {
  chat: ChatClientOptions;
  /** The operator's Telegram bot (TELEGRAM_BOT_TOKEN); null when there is none. */
  telegram: { sendMessage(chatId: string, message: unknown): Promise<ChatOutcome> } | null;
  /** SMTP (SMTP_URL, MAIL_FROM); null when there is none. */
  mail: { send(to: string, mail: MailMessage): Promise<ChatOutcome> } | null;
  /** PUBLIC_URL: where the links of a mail lead. */
  publicUrl: string | null;
  secretKey: Buffer | null;
}

const notConfigured = (what: string): ChatOutcome => ({ outcome: 'failed', status: null, answer: '', retryable: true, error: `${what} is not configured on this server` });

/**
 * One message to one destination, by its kind: Slack and Discord webhooks, the Telegram bot, SMTP.
 * A mail gets its footer and List-Unsubscribe here, and the Message-ID of its outbox row, so that a
 * mail sent again after a crash is the same mail to the receiving server.
 */
export const createSender =
  (channels: Channels): Send =>
  async (destination, address, outgoing) => {
    if (destination.kind === 'slack' || destination.kind === 'discord') return postChat(destination.kind, address, outgoing.message, channels.chat);
    if (destination.kind === 'telegram') return channels.telegram ? channels.telegram.sendMessage(address, outgoing.message) : notConfigured('Telegram (TELEGRAM_BOT_TOKEN)');
    const { mail, publicUrl, secretKey } = channels;
    if (!mail || !publicUrl || !secretKey) return notConfigured('Email (SMTP_URL, MAIL_FROM, PUBLIC_URL)');
    const link = (path: string, purpose: 'confirm' | 'unsubscribe') => `${publicUrl}/dashboard/alerts/${path}/${tokenFor(secretKey, purpose, destination.id)}`;
    const unsubscribeUrl = link('unsubscribe', 'unsubscribe');
    const parts = outgoing.subject.startsWith('confirm:') ? confirmationMail(destination.name, link('confirm', 'confirm')) : (outgoing.message as MailParts);
    const host = new URL(publicUrl).hostname;
    return mail.send(address, { ...withFooter(parts, destination.name, unsubscribeUrl), messageId: `<${outgoing.id}@${host}>`, unsubscribeUrl });
  };
