import { expect, test } from 'vitest';
import type { ViewId } from '../state/route';
import { CommandRegistry, type PaletteCommand } from './commandRegistry';

const ENTRIES = [{ id: 'new-policy', label: 'New policy', view: 'policies' as const, opensInput: true }];

function registry() {
  const went: ViewId[] = [];
  return { went, registry: new CommandRegistry(ENTRIES, (view) => went.push(view)) };
}

const ids = (commands: readonly PaletteCommand[]) => commands.map((c) => c.id);

test("the app's commands and those of the mounted view, in the order registered; a view's go when it unmounts", () => {
  const { registry: r } = registry();
  r.register(() => [{ id: 'go:rules', kind: 'view', label: 'Go to Rules', run: () => {} }]);
  const unmount = r.register(() => [{ id: 'list:clear', label: 'Clear the filter', run: () => {} }]);
  expect(ids(r.available())).toEqual(['go:rules', 'list:clear', 'new-policy']);
  unmount();
  expect(ids(r.available())).toEqual(['go:rules', 'new-policy']);
  // Unregistering twice is harmless.
  unmount();
  expect(ids(r.available())).toEqual(['go:rules', 'new-policy']);
});

test('a command that does not apply now is not offered; the provider is read each time (labels follow the state)', () => {
  const { registry: r } = registry();
  let dirty = false;
  r.register(() => [
    { id: 'save', label: dirty ? 'Save the changes' : 'Save', when: () => dirty, run: () => {} },
    { id: 'archive', label: 'Archive', run: () => {} },
  ]);
  expect(ids(r.available())).toEqual(['archive', 'new-policy']);
  dirty = true;
  expect(r.available().map((c) => c.label)).toEqual(['Save the changes', 'Archive', 'New policy']);
});

test("an entry point's view registers it: it is that view's command (not offered twice), even when it does not apply", () => {
  const { registry: r } = registry();
  let allowed = true;
  const mine: PaletteCommand = { id: 'new-policy', label: 'New policy', when: () => allowed, run: () => {} };
  const unmount = r.register(() => [mine]);
  expect(r.available()).toEqual([mine]);
  allowed = false;
  expect(r.available()).toEqual([]);
  unmount();
  expect(r.available().map((c) => ({ id: c.id, opensInput: c.opensInput }))).toEqual([{ id: 'new-policy', opensInput: true }]);
});

test('an entry point chosen elsewhere goes to its view and runs there once the view registers it (once)', async () => {
  const { registry: r, went } = registry();
  const ran: string[] = [];
  r.available()[0].run();
  expect(went).toEqual(['policies']);
  const view = () => [{ id: 'new-policy', label: 'New policy', run: () => ran.push('new-policy') }];
  const unmount = r.register(view);
  // After the registering view's mount, not during it.
  expect(ran).toEqual([]);
  await Promise.resolve();
  expect(ran).toEqual(['new-policy']);
  unmount();
  r.register(view);
  await Promise.resolve();
  expect(ran).toEqual(['new-policy']);
});

test('a waiting entry point is given up when something else is chosen, or when it no longer applies on arrival', async () => {
  const { registry: r } = registry();
  const ran: string[] = [];
  r.available()[0].run();
  r.forgetWaiting();
  r.register(() => [{ id: 'new-policy', label: 'New policy', run: () => ran.push('forgotten') }]);
  await Promise.resolve();
  const { registry: r2 } = registry();
  r2.available()[0].run();
  r2.register(() => [{ id: 'new-policy', label: 'New policy', when: () => false, run: () => ran.push('refused') }]);
  await Promise.resolve();
  expect(ran).toEqual([]);
});
