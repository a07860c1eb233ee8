/**
 * Credential-shaped strings for the redaction tests, assembled at runtime from parts so that no
 * file in the repository holds a literal that secret scanners flag. None of them is a real key.
 */
const join = (...parts: readonly string[]): string => parts.join('');

export const FAKE_SECRETS = {
  awsAccessKey: join('AK', 'IA', 'Q3ZT7NL2', 'HX5WBR4P'),
  awsSecretKey: join('wJalrXUtnFEMI', '/K7MDENG/', 'bPxRfiCYzQ4mW8tLkR'),
  githubToken: join('gh', 'p_', '1234567890abcdefghij', 'ABCDEFGHIJ123456'),
  githubOauthToken: join('gh', 'o_', '1234567890abcdefghij', 'ABCDEFGHIJ123456'),
  githubPat: join('github', '_pat_', '11ABCDEFG0123456789', '_abcdefghijklmnopqrstuvwxyz'),
  gitlabToken: join('gl', 'pat-', 'abcdefghij', '0123456789'),
  slackToken: join('xo', 'xb-', '1234567890-', 'abcdefghij'),
  anthropicKey: join('sk-', 'ant-', 'api03-', 'abcdefghijklmnopqrstuvwxyz-0123456789'),
  openaiKey: join('sk', '-', 'abcdefghijklmnopqrstuvwxyz', '0123456789'),
  openaiProjectKey: join('sk-', 'proj-', 'abcdefghijklmnopqrstuvwxyz', '_0123456789'),
  googleApiKey: join('AI', 'za', 'SyA-abcdefghijklmnopqrstuvwxyz01234'),
  stripeKey: join('sk', '_live_', 'abcdefghijklmnop0123'),
  jwt: join('ey', 'JhbGciOiJIUzI1NiJ9', '.', 'ey', 'JzdWIiOiIxMjM0NTY3ODkwIn0', '.', 'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'),
  rsaPrivateKey: [
    '-----BEGIN RSA ' + 'PRIVATE KEY-----',
    'MIIEowIBAAKCAQEAuZ0nq',
    'abcdefABCDEF0123456789+/==',
    '-----END RSA ' + 'PRIVATE KEY-----',
  ].join('\n'),
  npmToken: join('npm_', 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5'),
  opensshKeyHead: join('-----BEGIN OPENSSH ', 'PRIVATE KEY-----'),
  githubPatShort: join('github', '_pat_', '11ABCDEFG0123456789', '_abcdefghij'),
  slackWebhook: join('https://hooks.slack.com/services/', 'T0A1B2C3D/', 'B9Z8Y7X6W/', 'q8Wn3Lk2Jd9Hs7Fg5Dx1Cv0B'),
  azureAccountKey: join('abc123DEF456ghi789', 'JKL012mno345PQR678', 'stu901VWX234yz=='),
  awsSessionToken: join('FwoGZXIvYXdzEBYa', 'DHqa0AP1/3y0LKyA6', 'SKoAaRvbnsFw=='),
  /** AWS's documented example access key, a placeholder redaction must leave alone. */
  awsDocExampleKey: join('AK', 'IAIOSFODNN7EXAMPLE'),
  hexApiKey: join('8f3a9c1e7b2d4f6a', '9c0e1b3d5f7a9c1e'),
  hexHeaderKey: join('9f8e7d6c5b4a3928', '1706f5e4d3c2b1a0'),
} as const;
