/* SPDX-License-Identifier: GPL-2.0 */
/*
 * crem's tracepoints: the engine's events (crem/core/env.h), one
 * tracepoint each.  Use them with perf or trace-cmd, for example
 * "perf record -e 'crem:*'".
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM crem

#if !defined(_CREM_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _CREM_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(crem_block_decoded,
	TP_PROTO(u32 flow_id, u32 block_start, u32 restored, u32 repairs,
		 u32 cost, bool softirq),
	TP_ARGS(flow_id, block_start, restored, repairs, cost, softirq),
	TP_STRUCT__entry(
		__field(u32, flow_id)
		__field(u32, block_start)
		__field(u32, restored)
		__field(u32, repairs)
		__field(u32, cost)
		__field(bool, softirq)
	),
	TP_fast_assign(
		__entry->flow_id = flow_id;
		__entry->block_start = block_start;
		__entry->restored = restored;
		__entry->repairs = repairs;
		__entry->cost = cost;
		__entry->softirq = softirq;
	),
	TP_printk("flow=%u block=%u restored=%u repairs=%u cost=%u softirq=%d",
		  __entry->flow_id, __entry->block_start, __entry->restored,
		  __entry->repairs, __entry->cost, __entry->softirq)
);

TRACE_EVENT(crem_coded_retx_sent,
	TP_PROTO(u32 flow_id, u32 block_start, u32 lost, u32 symbols,
		 u32 request_id),
	TP_ARGS(flow_id, block_start, lost, symbols, request_id),
	TP_STRUCT__entry(
		__field(u32, flow_id)
		__field(u32, block_start)
		__field(u32, lost)
		__field(u32, symbols)
		__field(u32, request_id)
	),
	TP_fast_assign(
		__entry->flow_id = flow_id;
		__entry->block_start = block_start;
		__entry->lost = lost;
		__entry->symbols = symbols;
		__entry->request_id = request_id;
	),
	TP_printk("flow=%u block=%u lost=%u symbols=%u request=%u",
		  __entry->flow_id, __entry->block_start, __entry->lost,
		  __entry->symbols, __entry->request_id)
);

TRACE_EVENT(crem_coded_retx_answered,
	TP_PROTO(u32 flow_id, u32 block_start, u32 lost, u32 request_id),
	TP_ARGS(flow_id, block_start, lost, request_id),
	TP_STRUCT__entry(
		__field(u32, flow_id)
		__field(u32, block_start)
		__field(u32, lost)
		__field(u32, request_id)
	),
	TP_fast_assign(
		__entry->flow_id = flow_id;
		__entry->block_start = block_start;
		__entry->lost = lost;
		__entry->request_id = request_id;
	),
	TP_printk("flow=%u block=%u lost=%u request=%u", __entry->flow_id,
		  __entry->block_start, __entry->lost, __entry->request_id)
);

TRACE_EVENT(crem_fallback,
	TP_PROTO(u32 flow_id, u32 block_start, u32 lost, bool source_copy),
	TP_ARGS(flow_id, block_start, lost, source_copy),
	TP_STRUCT__entry(
		__field(u32, flow_id)
		__field(u32, block_start)
		__field(u32, lost)
		__field(bool, source_copy)
	),
	TP_fast_assign(
		__entry->flow_id = flow_id;
		__entry->block_start = block_start;
		__entry->lost = lost;
		__entry->source_copy = source_copy;
	),
	TP_printk("flow=%u block=%u lost=%u %s", __entry->flow_id,
		  __entry->block_start, __entry->lost,
		  __entry->source_copy ? "source-copy" : "left-to-rdma")
);

TRACE_EVENT(crem_param_change,
	TP_PROTO(u32 flow_id, u32 psn, u8 config_id, u8 k, u8 m),
	TP_ARGS(flow_id, psn, config_id, k, m),
	TP_STRUCT__entry(
		__field(u32, flow_id)
		__field(u32, psn)
		__field(u8, config_id)
		__field(u8, k)
		__field(u8, m)
	),
	TP_fast_assign(
		__entry->flow_id = flow_id;
		__entry->psn = psn;
		__entry->config_id = config_id;
		__entry->k = k;
		__entry->m = m;
	),
	TP_printk("flow=%u from_psn=%u config=%u k=%u m=%u", __entry->flow_id,
		  __entry->psn, __entry->config_id, __entry->k, __entry->m)
);

TRACE_EVENT(crem_circuit_breaker,
	TP_PROTO(u32 flow_id, bool tripped),
	TP_ARGS(flow_id, tripped),
	TP_STRUCT__entry(
		__field(u32, flow_id)
		__field(bool, tripped)
	),
	TP_fast_assign(
		__entry->flow_id = flow_id;
		__entry->tripped = tripped;
	),
	TP_printk("flow=%u %s", __entry->flow_id,
		  __entry->tripped ? "tripped" : "cleared")
);

#endif /* _CREM_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
