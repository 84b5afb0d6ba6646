import { describe, expect, it } from 'vitest';
import { mcpAllowedHosts } from './mcp.routes.ts';

describe('the host names /mcp answers for', () => {
  it('are PUBLIC_URL\'s, a named HOST, and the loopback names', () => {
    expect(mcpAllowedHosts({ publicUrl: 'https://subpilot.example.com:8443/base', host: 'api.internal' }).sort()).toEqual(
      ['127.0.0.1', '[::1]', 'api.internal', 'localhost', 'subpilot.example.com'].sort(),
    );
  });

  it('leave out a HOST that binds every address, and bracket an IPv6 one', () => {
    expect(mcpAllowedHosts({ publicUrl: null, host: '0.0.0.0' }).sort()).toEqual(['127.0.0.1', '[::1]', 'localhost'].sort());
    expect(mcpAllowedHosts({ publicUrl: null, host: '::' })).not.toContain('[::]');
    expect(mcpAllowedHosts({ publicUrl: null, host: 'fd00::5' })).toContain('[fd00::5]');
  });
});
