import { open, seal } from '../../shared/crypto/seal.ts';
import { destinationsErrors } from './destinations.errors.ts';
import type { DestinationsRepository } from './destinations.repository.ts';
import type { DestinationsTable } from './destinations.tables.ts';
import { destinationOf, type TokenPurpose } from './destinations.tokens.ts';

const UNSUBSCRIBED = 'the recipient unsubscribed (one click in a mail)';

/**
 * What the people at the other end do, without a log-in, through a signed link or code
 * (destinations.tokens.ts): confirm an address, link a Telegram chat, unsubscribe from a mail. Each is
 * safe to repeat: a second click finds the destination already confirmed or already off.
 */
export function createRecipientUsecases(deps: {
  repo: DestinationsRepository;
  clock: () => Date;
  requireKey: () => Buffer;
  enqueueMany: (destinationId: string, messages: { subject: string; message: unknown }[]) => Promise<unknown>;
  announceOff: (destination: DestinationsTable, reason: string, offAt: string) => Promise<void>;
}) {
  const { repo, clock, requireKey } = deps;

  /** The destination a link was made for; a refusal that says what to do when there is none or it expired. */
  async function fromToken(purpose: TokenPurpose, token: string, kind: 'email' | 'telegram') {
    const id = destinationOf(requireKey(), purpose, token);
    const destination = id ? await repo.forDrain(id) : undefined;
    if (!destination || destination.kind !== kind) throw destinationsErrors.linkInvalid();
    const expired = destination.status === 'unconfirmed' && destination.confirm_expires_at !== null && Date.parse(destination.confirm_expires_at) <= clock().getTime();
    if (expired && purpose !== 'unsubscribe') throw destinationsErrors.linkExpired();
    return destination;
  }

  const summary = (destination: DestinationsTable) => ({ id: destination.id, name: destination.name, address: destination.url_hint, status: destination.status });

  return {
    /** What a confirmation or unsubscribe link is about, for the page that asks for the click. */
    inspect: async (purpose: 'confirm' | 'unsubscribe', token: string) => summary(await fromToken(purpose, token, 'email')),

    /** The address's owner followed the link: alerts may go there from now on. */
    async confirmAddress(token: string) {
      const destination = await fromToken('confirm', token, 'email');
      if (destination.status === 'unconfirmed') await repo.activate(destination.id, {});
      return summary((await repo.forDrain(destination.id))!);
    },

    /** One click in a mail (RFC 8058): nothing more is sent to the address, and its owner is told once. */
    async unsubscribe(token: string) {
      const destination = await fromToken('unsubscribe', token, 'email');
      if (await repo.switchOff(destination.id, UNSUBSCRIBED)) await deps.announceOff(destination, UNSUBSCRIBED, clock().toISOString());
      return summary((await repo.forDrain(destination.id))!);
    },

    /**
     * A person sent the bot `/start <code>` from a chat: that chat becomes the destination, and is told
     * so through the outbox (paced and recorded like every message). Says what happened, for the bot's
     * answer to codes that link nothing.
     */
    async linkChat(code: string, chat: { id: string; name: string }): Promise<'linked' | 'already' | 'invalid' | 'expired'> {
      let destination: DestinationsTable;
      try {
        destination = await fromToken('link', code, 'telegram');
      } catch (error) {
        return (error as { code?: string }).code === 'destinations.link_expired' ? 'expired' : 'invalid';
      }
      // The same /start read again (a new worker reads what the last one did not confirm to Telegram): done already, nothing to say.
      if (destination.status === 'active' && open(requireKey(), destination.url_sealed, destination.account_id) === chat.id) return 'linked';
      if (destination.status !== 'unconfirmed') return 'already';
      const linked = await repo.activate(destination.id, { url_sealed: seal(requireKey(), chat.id, destination.account_id), url_hint: chat.name.slice(0, 100) });
      if (!linked) return 'already';
      const text = `Linked: subpilot alerts for "${destination.name}" will arrive in this chat. To stop them, delete the destination on the dashboard or block this bot.`;
      await deps.enqueueMany(destination.id, [{ subject: `linked:${destination.id}`, message: { text } }]);
      return 'linked';
    },
  };
}
