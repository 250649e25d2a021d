/**
 * A transport that plays back recorded inputs: replay pushes the journal's inbound frames and
 * transport changes into it and collects what the session sends.
 */
import { BehaviorSubject, Subject } from 'rxjs';
import type { Frame } from '../jsonrpc/message.js';
import type { RawFrame, Transport, TransportPhase, TransportState } from '../../streams/transport.js';
import { TransportError } from '../errors.js';

export class ReplayTransport implements Transport {
  private readonly inbound = new Subject<RawFrame>();
  private readonly state = new BehaviorSubject<TransportState>({ phase: 'connecting' });
  readonly inbound$ = this.inbound.asObservable();
  readonly state$ = this.state.asObservable();
  /** Every frame the session sent, in order (when kept). */
  readonly sent: Frame[] = [];

  constructor(
    private readonly keep = true,
    /** Told of each frame the session sends. */
    private readonly onSend?: (frame: Frame) => void,
  ) {}

  start(): Promise<void> {
    return Promise.resolve();
  }
  send(frame: Frame): void {
    if (this.keep) this.sent.push(frame);
    this.onSend?.(frame);
  }
  close(): Promise<void> {
    // The recorded transport entries say when it really closed.
    return Promise.resolve();
  }

  /** Deliver a recorded inbound frame. */
  push(raw: RawFrame): void {
    this.inbound.next(raw);
  }
  /** Move to a recorded transport phase. */
  setPhase(phase: TransportPhase, error?: string): void {
    if (this.state.value.phase === phase) return;
    this.state.next(error ? { phase, error: new TransportError(error) } : { phase });
    if (phase === 'closed' || phase === 'failed') this.inbound.complete();
  }
}
