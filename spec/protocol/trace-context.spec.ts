// The formats _meta's OpenTelemetry keys must follow (2026-07-28 basic/index "_meta"): W3C Trace
// Context for traceparent and tracestate, W3C Baggage for baggage; the examples are the W3C texts'.
import { expect } from 'chai';
import { isBaggage, isTraceparent, isTracestate } from '../../lib/protocol/trace-context.js';

describe('[BASE-109] trace context formats', () => {
  it('traceparent: version-traceid-parentid-flags in lower-case hex, no all-zero ids, no version ff', () => {
    for (const ok of ['00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00', '01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-future']) expect(isTraceparent(ok), ok).to.equal(true);
    for (const bad of [
      '', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7', '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01', '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01', 'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra', ' 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    ]) expect(isTraceparent(bad), bad).to.equal(false);
  });

  it('tracestate: up to 32 key=value members, simple or tenant@system keys, each key once', () => {
    for (const ok of ['congo=t61rcWkgMzE', 'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE', 'fw529a3039@dt=-1', ' a=1 , b=2 ', '']) expect(isTracestate(ok), ok).to.equal(true);
    const many = Array.from({ length: 33 }, (_v, i) => `k${i}=v`).join(',');
    for (const bad of ['Upper=x', 'a', '=x', 'a=1,a=2', 'a=x,y', 'a=b=c', 'a=b\tc', many]) expect(isTracestate(bad), bad).to.equal(false);
  });

  it('baggage: comma-separated key=value members with optional ;properties, values in baggage octets', () => {
    for (const ok of ['userId=alice', 'userId=alice,serverNode=DF%2028,isProduction=false', 'key1=value1;property1;property2, key2 = value2, key3=value3; propertyKey=propertyValue']) expect(isBaggage(ok), ok).to.equal(true);
    for (const bad of ['no-equals-sign', 'key with space=v', 'k=v,', 'k=va"lue', 'k=é', `k=${'x'.repeat(8200)}`]) expect(isBaggage(bad), bad).to.equal(false);
  });
});
