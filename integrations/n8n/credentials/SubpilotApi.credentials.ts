import type { IAuthenticateGeneric, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * A subpilot API key and the instance it belongs to. The key goes out only as the Authorization
 * header n8n adds from `authenticate`: the nodes never read it themselves, so nothing of ours can
 * log it. The webhook secret is optional and used only by the Subpilot Trigger, which verifies
 * deliveries with it; it is an account's, not a key's, but one credential keeps both in one place.
 */
export class SubpilotApi implements ICredentialType {
	name = 'subpilotApi';

	displayName = 'Subpilot API';

	documentationUrl = 'https://github.com/subpilot/subpilot/blob/main/integrations/n8n/README.md';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'A key from the dashboard\'s "API keys" page (ak_live_…); one key per tool',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'http://127.0.0.1:8080',
			required: true,
			description: 'The address of the subpilot instance, without /api/v1',
		},
		{
			displayName: 'Webhook Secret',
			name: 'webhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'The whsec_… secret from the dashboard\'s Webhooks page. Only the Subpilot Trigger uses it, to refuse deliveries subpilot did not sign.',
		},
	];

	// n8n adds this header to every request the nodes make with this credential (and to the test below).
	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey}}',
			},
		},
	};

	// Free and read-only: a good key answers 200 with the balance; an unknown, revoked or expired one 401.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/api/v1/balance',
		},
	};
}
