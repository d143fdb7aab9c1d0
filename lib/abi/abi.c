/* Sizes and field offsets of the public structs for run-time bindings
 * (include/layout/abi.h): two constant tables built by sizeof / offsetof. */
#include "layout.h"
#include "layout/abi.h"

#include <string.h>

typedef struct abi_type {
    const char *name;
    size_t size;
} abi_type;

typedef struct abi_field {
    const char *type;
    const char *field;
    size_t offset;
} abi_field;

#define ABI_T(T) { #T, sizeof(T) }

static const abi_type k_types[] = {
    ABI_T(layout_access_options), ABI_T(layout_access_step),  ABI_T(layout_access_plan),
    ABI_T(layout_seq),            ABI_T(layout_adaptor),      ABI_T(layout_lane_rule),
    ABI_T(layout_arch),           ABI_T(layout_cost),         ABI_T(layout_group_cost),
    ABI_T(layout_cost_detail),    ABI_T(layout_cost_totals),  ABI_T(layout_checker_rule),
    ABI_T(layout_checker),        ABI_T(layout_coalesce_params), ABI_T(layout_coalesce_result),
    ABI_T(layout_descriptor),     ABI_T(layout_dist_encoding), ABI_T(layout_distribution),
    ABI_T(layout_instr),          ABI_T(layout_side_result),  ABI_T(layout_kernel_result),
    ABI_T(layout_kernel_spec),    ABI_T(layout_side_plan),    ABI_T(layout_kernel_plan),
    ABI_T(layout_plan_expr),      ABI_T(layout_plan_op),      ABI_T(layout_plan_check),
    ABI_T(layout_plan),           ABI_T(layout_report_side),  ABI_T(layout_check_report),
    ABI_T(layout_error),          ABI_T(layout_transform),    ABI_T(layout_offset_report),
    ABI_T(layout_contiguity),     ABI_T(layout_diagnostic),
    ABI_T(layout_ttgir),          ABI_T(layout_ttgir_op),     ABI_T(layout_ttgir_type),
    ABI_T(layout_ttgir_alias),    ABI_T(layout_ttgir_ir_op),  ABI_T(layout_ttgir_value),
    ABI_T(layout_ttgir_attr),     ABI_T(layout_ttgir_region), ABI_T(layout_ttgir_block),
    ABI_T(layout_ttgir_ir),       ABI_T(layout_ttgir_span),
    ABI_T(layout_profile),      ABI_T(layout_profile_dispatch),
    ABI_T(layout_triton_kernel),  ABI_T(layout_triton_kernel_suggestions), ABI_T(layout_triton_kernel_ranked),
    ABI_T(layout_triton_inst),
#ifdef LAYOUT_SUGGEST_H /* the layout search (suggest.h), in builds that have it */
    ABI_T(layout_family_params),  ABI_T(layout_suggest_side),  ABI_T(layout_suggest_spec),
    ABI_T(layout_suggest_cost),   ABI_T(layout_suggest_candidate), ABI_T(layout_suggest_family_stats),
    ABI_T(layout_suggest_result), ABI_T(layout_suggest_text_spec),
#endif
};

#define ABI_F(T, f) { #T, #f, offsetof(T, f) }

static const abi_field k_fields[] = {
    ABI_F(layout_error, status), ABI_F(layout_error, message),

    ABI_F(layout_ttgir, target), ABI_F(layout_ttgir, num_warps), ABI_F(layout_ttgir, threads_per_warp),
    ABI_F(layout_ttgir, num_ctas), ABI_F(layout_ttgir, n_lines), ABI_F(layout_ttgir, n_aliases),
    ABI_F(layout_ttgir, aliases), ABI_F(layout_ttgir, n_ops), ABI_F(layout_ttgir, ops),
    ABI_F(layout_ttgir_op, kind), ABI_F(layout_ttgir_op, line), ABI_F(layout_ttgir_op, column),
    ABI_F(layout_ttgir_op, result_at), ABI_F(layout_ttgir_op, result_len), ABI_F(layout_ttgir_op, operand_at),
    ABI_F(layout_ttgir_op, operand_len), ABI_F(layout_ttgir_op, n_src), ABI_F(layout_ttgir_op, n_dst),
    ABI_F(layout_ttgir_op, src), ABI_F(layout_ttgir_op, dst), ABI_F(layout_ttgir_op, name_at),
    ABI_F(layout_ttgir_op, name_len), ABI_F(layout_ttgir, module_line), ABI_F(layout_ttgir, module_column),
    ABI_F(layout_ttgir_type, is_memdesc), ABI_F(layout_ttgir_type, rank), ABI_F(layout_ttgir_type, shape),
    ABI_F(layout_ttgir_type, elem), ABI_F(layout_ttgir_type, elem_bits), ABI_F(layout_ttgir_type, enc_len),
    ABI_F(layout_ttgir_type, mutable_),
    ABI_F(layout_ttgir_alias, name_at), ABI_F(layout_ttgir_alias, name_len), ABI_F(layout_ttgir_alias, text_at),
    ABI_F(layout_ttgir_alias, text_len),
    ABI_F(layout_ttgir, ir), ABI_F(layout_ttgir_ir, n_ops), ABI_F(layout_ttgir_ir, n_values),
    ABI_F(layout_ttgir_ir, ops), ABI_F(layout_ttgir_ir, values), ABI_F(layout_ttgir_ir, uses),
    ABI_F(layout_ttgir_ir, attrs), ABI_F(layout_ttgir_ir, regions), ABI_F(layout_ttgir_ir, blocks),
    ABI_F(layout_ttgir_ir_op, name), ABI_F(layout_ttgir_ir_op, line), ABI_F(layout_ttgir_ir_op, column),
    ABI_F(layout_ttgir_ir_op, parent_block), ABI_F(layout_ttgir_ir_op, first_result),
    ABI_F(layout_ttgir_ir_op, n_results), ABI_F(layout_ttgir_ir_op, first_use), ABI_F(layout_ttgir_ir_op, n_uses),
    ABI_F(layout_ttgir_ir_op, first_attr), ABI_F(layout_ttgir_ir_op, n_attrs), ABI_F(layout_ttgir_ir_op, first_region),
    ABI_F(layout_ttgir_ir_op, n_regions), ABI_F(layout_ttgir_ir_op, loc), ABI_F(layout_ttgir_ir_op, shared),
    ABI_F(layout_ttgir_value, name), ABI_F(layout_ttgir_value, def_op), ABI_F(layout_ttgir_value, def_block),
    ABI_F(layout_ttgir_value, index), ABI_F(layout_ttgir_value, type), ABI_F(layout_ttgir_value, rule),
    ABI_F(layout_ttgir_attr, name), ABI_F(layout_ttgir_attr, value),
    ABI_F(layout_triton_inst, op), ABI_F(layout_triton_inst, block), ABI_F(layout_triton_inst, seq),
    ABI_F(layout_triton_inst, direction), ABI_F(layout_triton_inst, bytes), ABI_F(layout_triton_inst, mnemonic),
    ABI_F(layout_triton_inst, buffer), ABI_F(layout_triton_inst, buffer_offset), ABI_F(layout_triton_inst, offset),
    ABI_F(layout_triton_inst, base_reg), ABI_F(layout_triton_inst, accesses), ABI_F(layout_triton_inst, partner_op),
    ABI_F(layout_triton_inst, partner), ABI_F(layout_triton_inst, pair_form), ABI_F(layout_triton_inst, standing),
    ABI_F(layout_triton_inst, passes), ABI_F(layout_triton_inst, n_warps), ABI_F(layout_triton_inst, lanes),
    ABI_F(layout_triton_inst, extra_cycles), ABI_F(layout_triton_inst, total_cycles),
    ABI_F(layout_triton_inst, confidence),
    ABI_F(layout_ttgir_region, parent_op), ABI_F(layout_ttgir_region, next), ABI_F(layout_ttgir_region, first_block),
    ABI_F(layout_ttgir_block, parent_region), ABI_F(layout_ttgir_block, next), ABI_F(layout_ttgir_block, first_op),
    ABI_F(layout_ttgir_block, first_arg), ABI_F(layout_ttgir_block, n_args),
    ABI_F(layout_profile, n_dispatches), ABI_F(layout_profile, dispatches),
    ABI_F(layout_profile_dispatch, kernel), ABI_F(layout_profile_dispatch, id),
    ABI_F(layout_profile_dispatch, present), ABI_F(layout_profile_dispatch, value),

    ABI_F(layout_instr, n_lanes), ABI_F(layout_instr, active_mask), ABI_F(layout_instr, width_bytes),
    ABI_F(layout_instr, direction), ABI_F(layout_instr, addr_bytes),

    ABI_F(layout_cost, extra_cycles), ABI_F(layout_cost, total_cycles), ABI_F(layout_cost, n_groups),
    ABI_F(layout_cost, worst_nway), ABI_F(layout_cost, worst_group), ABI_F(layout_cost, fold_xor),

    ABI_F(layout_side_result, direction), ABI_F(layout_side_result, steps_per_wave),
    ABI_F(layout_side_result, op_count), ABI_F(layout_side_result, n_misaligned),
    ABI_F(layout_side_result, n_noncontiguous), ABI_F(layout_side_result, n_warps),
    ABI_F(layout_side_result, instrs_per_tile), ABI_F(layout_side_result, extra_cycles_per_tile),
    ABI_F(layout_side_result, total_cycles_per_tile), ABI_F(layout_side_result, worst_warp),
    ABI_F(layout_side_result, worst_step), ABI_F(layout_side_result, worst_extra),
    ABI_F(layout_side_result, sq_lds_bank_conflict), ABI_F(layout_side_result, sq_insts_lds),
    ABI_F(layout_side_result, ops),

    ABI_F(layout_kernel_result, write), ABI_F(layout_kernel_result, read), ABI_F(layout_kernel_result, tiles),
    ABI_F(layout_kernel_result, extra_cycles_per_tile), ABI_F(layout_kernel_result, instrs_per_tile),
    ABI_F(layout_kernel_result, sq_lds_bank_conflict), ABI_F(layout_kernel_result, sq_insts_lds),

    ABI_F(layout_kernel_spec, write_desc), ABI_F(layout_kernel_spec, write_dist), ABI_F(layout_kernel_spec, write_opt),
    ABI_F(layout_kernel_spec, read_desc), ABI_F(layout_kernel_spec, read_dist), ABI_F(layout_kernel_spec, read_opt),
    ABI_F(layout_kernel_spec, elem_bytes), ABI_F(layout_kernel_spec, tiles),

    ABI_F(layout_access_options, policy), ABI_F(layout_access_options, no_merge),
    ABI_F(layout_access_options, vector_elems), ABI_F(layout_access_options, vector_y),
    ABI_F(layout_access_options, op), ABI_F(layout_access_options, base_bytes),
    ABI_F(layout_access_options, desc_plan), ABI_F(layout_access_options, arch),

    ABI_F(layout_arch, name), ABI_F(layout_arch, n_banks), ABI_F(layout_arch, bank_width_bytes),
    ABI_F(layout_arch, wave_size),

    ABI_F(layout_distribution, kind), ABI_F(layout_distribution, wave_size), ABI_F(layout_distribution, n_warps),
    ABI_F(layout_distribution, n_x), ABI_F(layout_distribution, x_lengths), ABI_F(layout_distribution, n_y),
    ABI_F(layout_distribution, y_lengths), ABI_F(layout_distribution, elems_per_thread),
    ABI_F(layout_distribution, replication),

#ifdef LAYOUT_SUGGEST_H
    ABI_F(layout_family_params, kind),

    ABI_F(layout_suggest_cost, extra_cycles), ABI_F(layout_suggest_cost, instrs), ABI_F(layout_suggest_cost, lds_bytes),
    ABI_F(layout_suggest_cost, index_ops), ABI_F(layout_suggest_cost, vector_damage), ABI_F(layout_suggest_cost, n_sides),
    ABI_F(layout_suggest_cost, side_extra), ABI_F(layout_suggest_cost, side_steps),
    ABI_F(layout_suggest_cost, side_op_count), ABI_F(layout_suggest_cost, side_misaligned),
    ABI_F(layout_suggest_cost, side_noncontiguous), ABI_F(layout_suggest_cost, side_split),

    ABI_F(layout_suggest_family_stats, searched), ABI_F(layout_suggest_family_stats, tried),
    ABI_F(layout_suggest_family_stats, failed), ABI_F(layout_suggest_family_stats, exhausted),
    ABI_F(layout_suggest_family_stats, best_extra), ABI_F(layout_suggest_family_stats, best_damage),

    ABI_F(layout_suggest_candidate, params), ABI_F(layout_suggest_candidate, index),
    ABI_F(layout_suggest_candidate, cost), ABI_F(layout_suggest_candidate, sides),
    ABI_F(layout_suggest_candidate, desc),

    ABI_F(layout_suggest_result, n_top), ABI_F(layout_suggest_result, top), ABI_F(layout_suggest_result, n_pareto),
    ABI_F(layout_suggest_result, pareto_total), ABI_F(layout_suggest_result, pareto),
    ABI_F(layout_suggest_result, families), ABI_F(layout_suggest_result, tried),
    ABI_F(layout_suggest_result, scored), ABI_F(layout_suggest_result, all_exhausted),

    ABI_F(layout_suggest_text_spec, spec),
#endif
};

#define ABI_COUNT(a) (sizeof(a) / sizeof((a)[0]))

size_t layout_abi_sizeof(const char *type_name)
{
    size_t i;
    if (!type_name) return 0;
    for (i = 0; i < ABI_COUNT(k_types); i++)
        if (strcmp(k_types[i].name, type_name) == 0) return k_types[i].size;
    return 0;
}

int64_t layout_abi_offsetof(const char *type_name, const char *field_name)
{
    size_t i;
    if (!type_name || !field_name) return -1;
    for (i = 0; i < ABI_COUNT(k_fields); i++)
        if (strcmp(k_fields[i].type, type_name) == 0 && strcmp(k_fields[i].field, field_name) == 0)
            return (int64_t)k_fields[i].offset;
    return -1;
}

size_t layout_abi_type_count(void) { return ABI_COUNT(k_types); }

const char *layout_abi_type_name(size_t index) { return index < ABI_COUNT(k_types) ? k_types[index].name : NULL; }
