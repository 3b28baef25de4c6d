// The mechanisms of models without RoPE: ALiBi (BLOOM, MPT, Falcon-RW), T5 buckets (T5, MPNet),
// DeBERTa buckets, learned tables (GPT-2, OPT, BERT, RoBERTa, MPNet, ESM-1b/1v, Whisper decoder)
// and sinusoidal tables (Marian, M2M100, XGLM, Whisper encoder), as each model class builds them;
// convolutional and 2-D rotary positions in encoder_families.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "encoder_families.hpp"
#include "model_internal.hpp"
#include "posenc/encodings/alibi_codebases.hpp"
#include "posenc/error.hpp"

namespace posenc::models::detail {
namespace {

using nlohmann::json;

constexpr std::int64_t kMaxRows = std::int64_t{1} << 31;

std::int64_t first_int(const HfScope& s, const std::string& file, std::initializer_list<const char*> keys,
                       std::int64_t lo, std::int64_t hi, std::int64_t fallback) {
  for (const char* k : keys)
    if (s.cfg->contains(k) && !(*s.cfg)[k].is_null()) return checked_int(s, file, k, lo, hi, fallback);
  return fallback;
}

void add_alibi(const HfScope& s, const std::string& file, ModelReport& r) {
  const std::string type(s.family->model_type);
  const std::int64_t heads = first_int(s, file, {"n_head", "num_attention_heads", "n_heads"}, 1, 65536, 0);
  if (heads == 0) throw Error(fmt::format("{}: missing \"n_head\" (ALiBi needs the head count)", file));
  MechanismUse m{Mechanism::kAlibi, "every layer", "", {}, {}, {}, ""};
  double bias_max = 8;
  if (type == "mpt") {
    if (auto a = s.cfg->find("attn_config"); a != s.cfg->end() && a->is_object())
      bias_max = number_field(*a, "alibi_bias_max", 8);
    if (!(bias_max > 0) || !std::isfinite(bias_max))
      throw Error(fmt::format("{}: \"attn_config.alibi_bias_max\" must be a number > 0 (got {})", file, bias_max));
  }
  const std::string codebase = type == "mpt" ? "mpt" : type == "falcon" ? "falcon" : "bloom";
  const auto slopes = encodings::alibi_slopes_of(codebase, heads, bias_max);
  m.values = {{"heads", heads}, {"slopes", slopes}, {"codebase", codebase}};
  if (codebase == "mpt") {
    m.values.emplace_back("alibi_bias_max", bias_max);
    m.notes.push_back("MPT gen_slopes: 1/2^(k·alibi_bias_max/P), P the next power of two; bias m·(j − (L−1)) (the "
                      "causal form up to a per-row constant)");
  } else {
    m.notes.push_back("build_alibi_tensor: the paper's slopes in float32; bias m·j over the keys (the causal form)");
  }
  if (codebase == "falcon") {
    const std::int64_t hidden = first_int(s, file, {"hidden_size"}, 1, kMaxRows, 0);
    const double head_dim = static_cast<double>(hidden / heads);
    std::vector<double> effective;
    for (double v : slopes) effective.push_back(v / std::sqrt(head_dim));
    m.values.emplace_back("effective_slopes", effective);
    m.notes.push_back("Falcon rounds the slopes to bfloat16 and adds the bias before scaling the logits by "
                      "1/sqrt(head_dim): effective_slopes = slopes / sqrt(head_dim)");
  }
  m.command = fmt::format("posenc generate alibi --hf-config {}", shell_word(file));
  r.mechanisms.push_back(std::move(m));
}

void add_t5(const HfScope& s, const std::string& file, ModelReport& r) {
  const auto buckets = checked_int(s, file, "relative_attention_num_buckets", 2, 1 << 20, 32);
  const auto distance = checked_int(s, file, "relative_attention_max_distance", 1, kMaxRows, 128);
  const auto heads = checked_int(s, file, "num_heads", 1, 65536, 8);
  // T5Stack / MT5Stack: has_relative_attention_bias=bool(i == 0), the other layers reuse layer
  // 0's position_bias; UMT5LayerSelfAttention: has_relative_attention_bias=True in every block
  // (cross-attention has none). The decoder stack has num_decoder_layers blocks (default num_layers).
  const bool every_layer = s.family->model_type == "umt5";
  const auto enc_layers = layer_count(s, file);
  const auto dec_layers = checked_int(s, file, "num_decoder_layers", 1, kMaxLayers, enc_layers);
  for (const bool decoder : {false, true}) {
    const std::string stack = decoder ? "decoder" : "encoder";
    MechanismUse m{Mechanism::kT5, stack, stack, {}, {}, {}, ""};
    const std::int64_t nb = decoder ? buckets : buckets / 2;
    const std::int64_t n = decoder ? dec_layers : enc_layers;
    for (std::int64_t i = 0; i < (every_layer ? n : std::min<std::int64_t>(n, 1)); ++i) m.layers.push_back(i);
    m.values = {{"num_buckets", buckets}, {"max_distance", distance}, {"bidirectional", !decoder},
                {"max_exact", nb / 2}, {"heads", heads}, {"stack_layers", n},
                {"bias_tables", static_cast<std::int64_t>(m.layers.size())}};
    m.notes.push_back(every_layer ? "UMT5: every self-attention layer has its own bias table (the same buckets, its own "
                                    "values per head)"
                                  : "the bias table is in layer 0 of the stack, shared by every layer");
    m.command = fmt::format("posenc generate t5 --hf-config {}{}", shell_word(file), decoder ? " --causal" : "");
    r.mechanisms.push_back(std::move(m));
  }
}

void add_deberta(const HfScope& s, const std::string& file, ModelReport& r) {
  const auto max_pos = checked_int(s, file, "max_position_embeddings", 1, kMaxRows, 512);
  if (bool_field(*s.cfg, "relative_attention", false)) {
    auto max_rel = checked_int(s, file, "max_relative_positions", -1, kMaxRows, -1);
    if (max_rel < 1) max_rel = max_pos;  // DebertaV2Encoder: max_relative_positions < 1 → max_position_embeddings
    const auto buckets = checked_int(s, file, "position_buckets", -1, kMaxRows, -1);
    const std::int64_t span = buckets > 0 ? buckets : max_rel;
    MechanismUse m{Mechanism::kDeberta, "every layer", "", {}, {}, {}, ""};
    std::vector<std::string> types;
    if (auto p = s.cfg->find("pos_att_type"); p != s.cfg->end()) {
      if (p->is_array()) {
        for (const auto& v : *p)
          if (v.is_string()) types.push_back(v.get<std::string>());
      } else if (p->is_string()) {
        types.push_back(p->get<std::string>());
      }
    }
    std::string joined;
    for (const auto& t : types) joined += (joined.empty() ? "" : "|") + t;
    m.values = {{"position_buckets", buckets}, {"max_relative_positions", max_rel}, {"att_span", span},
                {"pos_att_type", joined}, {"share_att_key", bool_field(*s.cfg, "share_att_key", false)}};
    if (buckets > 0)  // the deberta scheme tabulates the bucketed form (model_scheme_values.cpp)
      m.command = fmt::format("posenc generate deberta --hf-config {}", shell_word(file));
    if (buckets > 0)
      m.notes.push_back(fmt::format("make_log_bucket_position: relative distances within ±{} kept, farther ones in "
                                    "log buckets up to {}",
                                    buckets / 2, max_rel));
    r.mechanisms.push_back(std::move(m));
  }
  if (bool_field(*s.cfg, "position_biased_input", true)) {
    const auto width = first_int(s, file, {"embedding_size", "hidden_size"}, 1, kMaxRows, 0);
    MechanismUse m{Mechanism::kLearned, "embeddings", "", {}, {}, {}, ""};
    m.values = {{"rows", max_pos}, {"positions", max_pos}, {"width", width}, {"offset", std::int64_t{0}},
                {"weight", std::string("embeddings.position_embeddings.weight")}};
    m.notes.push_back("position_biased_input: an absolute table is added to the embeddings");
    m.command = fmt::format("posenc generate learned --hf-config {}", shell_word(file));
    r.mechanisms.push_back(std::move(m));
  }
}

void add_learned(const HfScope& s, const std::string& file, ModelReport& r, const std::string& where,
                 std::int64_t rows, std::int64_t width, std::int64_t offset, const std::string& key) {
  MechanismUse m{Mechanism::kLearned, where, where == "decoder" || where == "encoder" ? where : "", {}, {}, {}, ""};
  m.values = {{"rows", rows + offset}, {"positions", rows}, {"width", width}, {"offset", offset}, {"weight", key}};
  if (offset > 0)
    m.notes.push_back(fmt::format("row t + {} holds position t (the first {} rows are never used for positions)",
                                  offset, offset));
  m.notes.push_back(fmt::format("trained values are not in a config: dump {} to .npy and pass it with "
                                "'posenc generate --input table.npy'",
                                key));
  m.command = fmt::format("posenc generate learned --hf-config {}", shell_word(file));
  (void)s;
  r.mechanisms.push_back(std::move(m));
}

void add_sinusoidal(ModelReport& r, const std::string& file, const std::string& where, std::int64_t rows, std::int64_t width,
                    const std::string& convention, std::int64_t offset, const std::string& why) {
  MechanismUse m{Mechanism::kSinusoidal, where, where == "encoder" ? "encoder" : "", {}, {}, {}, ""};
  m.values = {{"rows", rows}, {"width", width}, {"convention", convention}, {"layout", std::string("split")},
              {"base", 10000.0}, {"first_position", offset}};
  m.notes.push_back(why);
  m.command = fmt::format("posenc generate sinusoidal --hf-config {}", shell_word(file));
  r.mechanisms.push_back(std::move(m));
}

// MPNet (models/mpnet/modeling_mpnet.py @ decba1d2): MPNetEncoder.relative_position_bucket is
// T5's bidirectional bucket function (n = −(k − q); n < 0, a key after the query, adds
// num_buckets/2), and compute_position_bias calls it with its own defaults num_buckets=32,
// max_distance=128: the config's relative_attention_num_buckets only sizes the nn.Embedding. One
// table in the encoder, added in every layer. MPNetEmbeddings: padding_idx = 1 (fixed, not
// pad_token_id), positions from padding_idx + 1.
void add_mpnet(const HfScope& s, const std::string& file, ModelReport& r) {
  constexpr std::int64_t kMpnetBuckets = 32;
  constexpr std::int64_t kMpnetDistance = 128;
  const auto table_rows = checked_int(s, file, "relative_attention_num_buckets", 1, 1 << 20, 32);
  if (table_rows < kMpnetBuckets)
    throw Error(fmt::format("{}: \"{}relative_attention_num_buckets\" is {}, but MPNet's compute_position_bias "
                            "buckets into 32 (it ignores the field) and its bias table would have too few rows: at "
                            "least 32 are needed",
                            file, s.prefix, table_rows));
  const auto heads = first_int(s, file, {"num_attention_heads"}, 1, 65536, 12);
  MechanismUse m{Mechanism::kT5, "every layer", "", {}, {}, {}, ""};
  m.values = {{"num_buckets", kMpnetBuckets}, {"max_distance", kMpnetDistance}, {"bidirectional", true},
              {"max_exact", kMpnetBuckets / 4}, {"heads", heads}, {"stack_layers", r.num_layers},
              {"bias_tables", std::int64_t{1}}, {"table_rows", table_rows}};
  m.notes.push_back("MPNetEncoder.relative_position_bucket is T5's bidirectional bucket function; "
                    "compute_position_bias calls it with num_buckets 32 and max_distance 128 whatever the config says "
                    "(relative_attention_num_buckets sizes the bias table only)");
  m.notes.push_back("one bias table (relative_attention_bias) in the encoder, computed once and added in every layer");
  m.command = fmt::format("posenc generate t5 --hf-config {}", shell_word(file));
  r.mechanisms.push_back(std::move(m));
  const auto rows = first_int(s, file, {"max_position_embeddings"}, 3, kMaxRows, 512);
  add_learned(s, file, r, "embeddings", rows - 2, first_int(s, file, {"hidden_size"}, 1, kMaxRows, 768), 2,
              "embeddings.position_embeddings.weight");
  r.mechanisms.back().notes.insert(r.mechanisms.back().notes.begin(),
                                   "MPNetEmbeddings: padding_idx is 1 whatever pad_token_id says; positions start at "
                                   "padding_idx + 1 (create_position_ids_from_input_ids)");
}

// ESM with position_embedding_type 'absolute' (ESM-1b, ESM-1v; models/esm/modeling_esm.py @
// decba1d2): EsmEmbeddings' table, positions from padding_idx + 1 with padding_idx =
// pad_token_id (EsmConfig's default is None). 'rotary' (ESM-2) takes the RoPE path.
void add_esm(const HfScope& s, const std::string& file, ModelReport& r) {
  auto pad_it = s.cfg->find("pad_token_id");
  if (pad_it == s.cfg->end() || pad_it->is_null())
    throw Error(fmt::format("{}: \"{}pad_token_id\" is absent: ESM's absolute positions start at pad_token_id + 1 "
                            "(create_position_ids_from_input_ids), so posenc cannot tell which row holds position 0",
                            file, s.prefix));
  const auto pad = checked_int(s, file, "pad_token_id", 0, kMaxRows, 1);
  const auto rows = first_int(s, file, {"max_position_embeddings"}, 1, kMaxRows, 1026);
  if (rows < pad + 2)
    throw Error(fmt::format("{}: \"{}max_position_embeddings\" {} leaves no position after pad_token_id {} (positions "
                            "start at pad_token_id + 1)",
                            file, s.prefix, rows, pad));
  add_learned(s, file, r, "embeddings", rows - pad - 1, first_int(s, file, {"hidden_size"}, 1, kMaxRows, 768), pad + 1,
              "embeddings.position_embeddings.weight");
  r.mechanisms.back().notes.insert(r.mechanisms.back().notes.begin(),
                                   "position_embedding_type 'absolute': EsmEmbeddings adds a learned table, positions "
                                   "from pad_token_id + 1 (ESM-2 checkpoints say 'rotary' and use RoPE instead)");
}

// XGLM (models/xglm/modeling_xglm.py @ decba1d2): XGLMSinusoidalPositionalEmbedding builds
// fairseq's get_embedding table of max_position_embeddings + 2 rows and reads row t + offset,
// offset = 2 fixed; position ids run from 0. Row pad_token_id is zeroed.
void add_xglm(const HfScope& s, const std::string& file, ModelReport& r) {
  const auto pad = first_int(s, file, {"pad_token_id"}, 0, kMaxRows, 1);
  add_sinusoidal(r, file, "embeddings", first_int(s, file, {"max_position_embeddings"}, 1, kMaxRows, 2048),
                 first_int(s, file, {"d_model"}, 1, kMaxRows, 1024), "fairseq", 2,
                 "XGLMSinusoidalPositionalEmbedding (fairseq get_embedding): w_k = exp(-k·ln(10000)/(d/2 - 1)), "
                 "[sin | cos]; position t reads row t + 2 (offset 2, fixed)");
  if (pad >= 2)
    r.mechanisms.back().notes.push_back(fmt::format("pad_token_id {}: get_embedding zeroes row {}, which holds position "
                                                    "{} (the table above does not)",
                                                    pad, pad, pad - 2));
}

}  // namespace

void add_table_mechanisms(const HfScope& s, const std::string& file, ModelReport& r) {
  const std::string type(s.family->model_type);
  for (Mechanism m : mechanisms_used(s)) {
    if (m == Mechanism::kAlibi) add_alibi(s, file, r);
    if (m == Mechanism::kT5 && type != "mpnet") add_t5(s, file, r);  // MPNet: add_mpnet
  }
  if (type == "deberta-v2") add_deberta(s, file, r);
  if (type == "gpt2" || type == "gpt_bigcode")
    add_learned(s, file, r, "embeddings", first_int(s, file, {"n_positions"}, 1, kMaxRows, 1024),
                first_int(s, file, {"n_embd"}, 1, kMaxRows, 768), 0, "transformer.wpe.weight");
  if (type == "opt")  // OPTLearnedPositionalEmbedding: offset 2, positions from the attention mask's cumsum
    add_learned(s, file, r, "decoder", first_int(s, file, {"max_position_embeddings"}, 1, kMaxRows, 2048),
                first_int(s, file, {"hidden_size"}, 1, kMaxRows, 768), 2, "model.decoder.embed_positions.weight");
  if (type == "bart") {  // BartLearnedPositionalEmbedding in each stack: offset 2, position ids from 0 (arange)
    const auto rows = first_int(s, file, {"max_position_embeddings"}, 1, kMaxRows, 1024);
    const auto width = first_int(s, file, {"d_model"}, 1, kMaxRows, 1024);
    add_learned(s, file, r, "encoder", rows, width, 2, "model.encoder.embed_positions.weight");
    add_learned(s, file, r, "decoder", rows, width, 2, "model.decoder.embed_positions.weight");
  }
  if (type == "gpt_neo")  // GPTNeoModel.wpe: nn.Embedding(max_position_embeddings, hidden_size), row t
    add_learned(s, file, r, "embeddings", first_int(s, file, {"max_position_embeddings"}, 1, kMaxRows, 2048),
                first_int(s, file, {"hidden_size"}, 1, kMaxRows, 2048), 0, "transformer.wpe.weight");
  if (type == "bert") {
    add_learned(s, file, r, "embeddings", first_int(s, file, {"max_position_embeddings"}, 1, kMaxRows, 512),
                first_int(s, file, {"hidden_size"}, 1, kMaxRows, 768), 0, "embeddings.position_embeddings.weight");
  }
  if (type == "distilbert") {  // Embeddings.position_embeddings: nn.Embedding(max_position_embeddings, dim), row t
    add_learned(s, file, r, "embeddings", first_int(s, file, {"max_position_embeddings"}, 1, kMaxRows, 512),
                first_int(s, file, {"dim"}, 1, kMaxRows, 768), 0, "distilbert.embeddings.position_embeddings.weight");
    if (bool_field(*s.cfg, "sinusoidal_pos_embds", false))
      r.mechanisms.back().notes.insert(r.mechanisms.back().notes.begin(),
                                       "sinusoidal_pos_embds: create_sinusoidal_embeddings fills the table with fixed "
                                       "sinusoids (sin in even columns, cos in odd, 10000^(-2(j//2)/dim)) and freezes it");
  }
  if (type == "electra")  // ElectraEmbeddings: nn.Embedding(max_position_embeddings, embedding_size), row t
    add_learned(s, file, r, "embeddings", first_int(s, file, {"max_position_embeddings"}, 1, kMaxRows, 512),
                first_int(s, file, {"embedding_size"}, 1, kMaxRows, 128), 0, "electra.embeddings.position_embeddings.weight");
  if (type == "roberta" || type == "longformer") {  // create_position_ids_from_input_ids: padding_idx + 1 onwards
    const auto pad = first_int(s, file, {"pad_token_id"}, 0, kMaxRows, 1);
    const auto rows = first_int(s, file, {"max_position_embeddings"}, 1, kMaxRows, 512);
    add_learned(s, file, r, "embeddings", rows - pad - 1, first_int(s, file, {"hidden_size"}, 1, kMaxRows, 768),
                pad + 1, "embeddings.position_embeddings.weight");
  }
  if (type == "bert" || type == "roberta" || type == "electra") {
    auto it = s.cfg->find("position_embedding_type");
    if (it != s.cfg->end() && it->is_string() && it->get<std::string>() != "absolute")
      r.notes.push_back(fmt::format("position_embedding_type '{}': relative key embeddings are added too",
                                    it->get<std::string>()));
  }
  if (type == "mpnet") add_mpnet(s, file, r);
  if (type == "esm") add_esm(s, file, r);
  if (type == "xglm") add_xglm(s, file, r);
  add_encoder_mechanisms(s, file, r);
  const auto d_model = first_int(s, file, {"d_model"}, 1, kMaxRows, 0);
  if (type == "marian")
    add_sinusoidal(r, file, "encoder and decoder", first_int(s, file, {"max_position_embeddings"}, 1, kMaxRows, 1024), d_model,
                   "paper", 0,
                   "MarianSinusoidalPositionalEmbedding: w_k = 10000^(-2k/d), sin in the first half, cos in the second");
  if (type == "m2m_100") {
    const auto pad = first_int(s, file, {"pad_token_id"}, 0, kMaxRows, 1);
    add_sinusoidal(r, file, "encoder and decoder", first_int(s, file, {"max_position_embeddings"}, 1, kMaxRows, 1024), d_model,
                   "fairseq", pad + 1,
                   "M2M100SinusoidalPositionalEmbedding (fairseq): w_k = exp(-k·ln(10000)/(d/2 - 1)); positions from "
                   "padding_idx + 1");
  }
  if (type == "whisper") {
    add_sinusoidal(r, file, "encoder", first_int(s, file, {"max_source_positions"}, 1, kMaxRows, 1500), d_model,
                   "tensor2tensor", 0,
                   "Whisper sinusoids(): w_k = exp(-k·ln(10000)/(d/2 - 1)), [sin | cos], positions from 0");
    add_learned(s, file, r, "decoder", first_int(s, file, {"max_target_positions"}, 1, kMaxRows, 448), d_model, 0,
                "model.decoder.embed_positions.weight");
  }
}

}  // namespace posenc::models::detail
