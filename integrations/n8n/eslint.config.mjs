// n8n's own rules for community nodes (eslint-plugin-n8n-nodes-base), in ESLint's flat config: the
// plugin ships only legacy presets, so their rule lists are taken as they are, per kind of file.
import tsParser from '@typescript-eslint/parser';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';

const plugins = { 'n8n-nodes-base': n8nNodesBase };
const languageOptions = { parser: tsParser, parserOptions: { sourceType: 'module', extraFileExtensions: ['.json'] } };

export default [
	{ ignores: ['dist/**', 'node_modules/**', 'eslint.config.mjs', 'scripts/**'] },
	{ files: ['package.json'], languageOptions, plugins, rules: n8nNodesBase.configs.community.rules },
	{
		files: ['credentials/**/*.ts'],
		languageOptions,
		plugins,
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// The rule's own documentation: "Only applicable to nodes in the main repository", whose
			// documentationUrl is a slug of docs.n8n.io; a community package links a full URL (n8n's
			// n8n-nodes-starter switches it off too).
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{ files: ['nodes/**/*.ts'], languageOptions, plugins, rules: n8nNodesBase.configs.nodes.rules },
];
