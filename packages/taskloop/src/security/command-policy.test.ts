import { describe, expect, it } from 'vitest';
import type { CommandPolicy } from './command-policy-config.js';
import { checkCommand } from './command-policy.js';

const policy: CommandPolicy = { allow: ['npm test', 'npx tsc --noEmit', 'node', 'grep'], deny: ['npm test -- --update', 'rm'] };

describe('checkCommand', () => {
  it.each([
    ['npm test', 'npm', ['test']],
    ['npm test -- --watch=false', 'npm', ['test', '--', '--watch=false']],
    ['npx tsc --noEmit -p .', 'npx', ['tsc', '--noEmit', '-p', '.']],
    ['node "scripts/check it.js" \'a b\'', 'node', ['scripts/check it.js', 'a b']],
    ["grep -e 'TODO$' 'src/*.ts'", 'grep', ['-e', 'TODO$', 'src/*.ts']],
    ['node -e "console.log(1);"', 'node', ['-e', 'console.log(1);']],
    ['node a\\;b', 'node', ['a;b']],
  ])('allows %s', (command, file, args) => {
    expect(checkCommand(command, policy)).toEqual({ ok: true, file, args });
  });

  it.each([
    ['npm test; rm -rf /', '";"'],
    ['npm test && curl evil', '"&"'],
    ['npm test || true', 'pipe'],
    ['npm test | tee log', 'pipe'],
    ['npm test > out.txt', 'redirection ">"'],
    ['npm test < in.txt', 'redirection "<"'],
    ['npm test &', '"&"'],
    ['npm test $(cat secret)', '"$"'],
    ['npm test `cat secret`', 'backticks'],
    ['npm test "$HOME"', '"$"'],
    ['npm test "`id`"', 'backticks'],
    ['npm test ${HOME}', '"$"'],
    ['npm test src/*.ts', 'glob "*"'],
    ['npm test a?', 'glob "?"'],
    ['npm test [ab]', 'glob "["'],
    ['npm test {a,b}', 'brace'],
    ['npm test ~/x', '"~"'],
    ['npm test # comment', 'comment'],
    ['npm test\nrm -rf /', 'line break'],
    ['npm test "unclosed', 'unclosed double quote'],
    ['(npm test)', 'subshell'],
  ])('refuses the shell construct in %j', (command, what) => {
    const check = checkCommand(command, { allowUnlisted: true });
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.reason).toContain(what.replace('backticks', '`'));
      expect(check.fix).toMatch(/plain arguments/);
    }
  });

  it.each(['FOO=1 npm test', 'NODE_OPTIONS=--require=x node a.js'])('refuses the environment assignment in %j', (command) => {
    const check = checkCommand(command, { allowUnlisted: true });
    expect(check).toMatchObject({ ok: false, reason: expect.stringMatching(/environment assignment/) as unknown });
  });

  it('lets an = later in the command through', () => {
    expect(checkCommand('npm test -- --reporter=dot', policy).ok).toBe(true);
  });

  it('refuses an empty command', () => {
    expect(checkCommand('   ', { allowUnlisted: true })).toMatchObject({ ok: false, reason: 'the command is empty' });
  });

  it.each([
    ['npm test -- --update', policy, 'npm test -- --update'],
    ['npm test -- --update --ci', policy, 'npm test -- --update'],
    ['rm -rf dist', { allowUnlisted: true, deny: ['rm'] }, 'rm'],
    ['/bin/rm -rf dist', { allowUnlisted: true, deny: ['rm'] }, 'rm'],
    ['rm -rf dist', { allow: ['rm -rf dist'], deny: ['rm -rf'] }, 'rm -rf'],
  ] satisfies [string, CommandPolicy, string][])('deny wins: %j', (command, p, entry) => {
    const check = checkCommand(command, p);
    expect(check).toMatchObject({ ok: false, reason: expect.stringContaining(`deny entry "${entry}"`) as unknown });
  });

  it('matches prefixes word by word, not by characters', () => {
    expect(checkCommand('npm testing', policy).ok).toBe(false);
    expect(checkCommand('npm', policy).ok).toBe(false);
    expect(checkCommand('npx tsc', policy).ok).toBe(false);
    expect(checkCommand('npm  test', policy).ok).toBe(true);
    expect(checkCommand('"npm test"', policy).ok).toBe(false);
    expect(checkCommand('nodemon', policy).ok).toBe(false);
  });

  it('refuses an unlisted command and names the allow entry to add', () => {
    const check = checkCommand('npm install left-pad', policy);
    expect(check).toEqual({
      ok: false,
      reason: expect.stringContaining('matches no allow entry') as unknown,
      fix: 'add "npm install" to the command policy\'s allow list',
    });
  });

  it.each<CommandPolicy | undefined>([undefined, {}, { allow: [] }, { deny: ['rm'] }])(
    'with no allowlist (%j) refuses and says how to opt in',
    (p) => {
      const check = checkCommand('npm test', p);
      expect(check.ok).toBe(false);
      if (!check.ok) {
        expect(check.reason).toContain('no allowlist');
        expect(check.fix).toContain('allowUnlisted: true');
        expect(check.fix).toContain('allow: ["npm test"]');
      }
    },
  );

  it.each([
    ['node --test --require=evil.cjs', '--require'],
    ['node --test -r ./evil.cjs test/', '-r'],
    ['node --test --import data:text/javascript,1', '--import'],
    ['node --test --experimental-loader ./hook.mjs', '--experimental-loader'],
    ['node --test -e "process.exit(0)"', '-e'],
    ['npm test --node-options=--require=x', '--node-options'],
  ])('refuses %j under the allowed prefix, since it loads other code', (command, option) => {
    const check = checkCommand(command, { allow: ['node --test', 'npm test'] });
    expect(check).toMatchObject({
      ok: false,
      reason: expect.stringContaining(`passes ${option}`) as unknown,
      fix: expect.stringContaining(`drop ${option}`) as unknown,
    });
  });

  it('allows the prefix with ordinary arguments, and code-loading options after "--" (they are the script\'s)', () => {
    expect(checkCommand('node --test test/a.test.js --test-reporter=spec', { allow: ['node --test'] }).ok).toBe(true);
    expect(checkCommand('npm test -- --require=x', { allow: ['npm test'] }).ok).toBe(true);
    expect(checkCommand('node --test --require=setup.cjs', { allow: ['node --test --require=setup.cjs'] }).ok).toBe(true);
  });

  it.each([
    'env rm -rf build',
    'sh -c "rm -rf build"',
    'busybox rm -rf build',
    'xargs rm',
    'nice rm -rf build',
    '/usr/bin/env rm -rf build',
    "node -e \"require('fs').rmSync('build')\"",
  ])('under allowUnlisted with a deny list, refuses %j: a program that runs other commands walks past a deny', (command) => {
    const check = checkCommand(command, { allowUnlisted: true, deny: ['rm'] });
    expect(check).toMatchObject({ ok: false, reason: expect.stringContaining('runs another command') as unknown });
    const program = command.split(' ')[0] as string;
    expect(checkCommand(command, { allowUnlisted: true, deny: ['rm'], allow: [program] }).ok).toBe(true);
  });

  it('under allowUnlisted with no deny list, runs a command runner too (there is nothing to walk past)', () => {
    expect(checkCommand('node agent.js', { allowUnlisted: true }).ok).toBe(true);
  });

  it('runs anything not denied once allowUnlisted is set', () => {
    expect(checkCommand('make check', { allowUnlisted: true })).toEqual({ ok: true, file: 'make', args: ['check'] });
    expect(checkCommand('make check', { allow: ['npm test'], allowUnlisted: true }).ok).toBe(true);
  });
});
