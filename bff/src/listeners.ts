import { listenForMerging } from './services/merging/listeners.ts';
import { listenForPlanning } from './services/planning/listeners.ts';

let listening = false;

/** Registers, once per process, the rooms' listeners on the notifier (services/notifier.ts). */
export function listenAcrossRooms(): void {
  if (listening) return;
  listening = true;
  listenForPlanning();
  listenForMerging();
}
