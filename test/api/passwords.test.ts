import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';

// The one suite at production cost: every other suite hashes with test/support/passwords.ts.
describe.each(engines)('dashboard passwords at production cost on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    // No hasher passed, as `subpilot serve` passes none.
    app = await startTestApp(engine, { worker: false, overrides: { passwords: undefined } });
  });
  afterAll(() => app.close());

  it('a stored password is argon2id with 64 MiB, 3 passes and 4 lanes, and logs in', async () => {
    const account = await app.services.accounts.createAccount('cost@example.com', 'a long enough password');
    const [row] = await app.database.db.selectFrom('accounts').select('password_hash').where('id', '=', account.id).execute();
    expect(row!.password_hash).toMatch(/^\$argon2id\$v=19\$m=65536,p=4,t=3\$/);
    expect(await app.services.accounts.authenticatePassword('cost@example.com', 'a long enough password')).toMatchObject({ id: account.id });
    expect(await app.services.accounts.authenticatePassword('cost@example.com', 'not the password')).toBeNull();
  });
});
