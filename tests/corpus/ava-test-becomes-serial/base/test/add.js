import test from 'ava';
import {add} from '../index.js';

// The cache is shared — these tests must not run at once.
test('adds', t => {
	t.is(add(1, 2), 3);
});

test('adds zero', t => {
	t.is(add(0, 2), 2);
});
