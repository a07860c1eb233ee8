import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as greeter from '../src/greet.js';

test('greet says hello', () => {
  assert.equal(greeter.greet('Ada'), 'Hello, Ada!');
});

test('farewell says goodbye', () => {
  assert.equal(typeof greeter.farewell, 'function', 'src/greet.js must export farewell(name)');
  assert.equal(greeter.farewell('Ada'), 'Goodbye, Ada!');
});
