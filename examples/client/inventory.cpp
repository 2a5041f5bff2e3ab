// A shared inventory: many threads reserve from one stock at once. Optimistic
// concurrency makes them conflict; retries resolve the conflicts; the
// invariant keeps the stock from going below zero.
#include <atomic>
#include <iostream>
#include <thread>
#include <vector>

#include "example_support.hpp"

struct Inventory {
  int stock = 0;
  int reserved = 0;
};
struct Restocked {
  int quantity = 0;
};
struct Reserved {
  int quantity = 0;
  std::string order;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Inventory, stock, reserved)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Restocked, quantity)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Reserved, quantity, order)

using Restock = Restocked;
using Reserve = Reserved;

namespace {

constexpr int kInitialStock = 100;
constexpr int kThreads = 8;
constexpr int kReservationsPerThread = 20;

act::State<Inventory> inventory_state() {
  const auto positive = [](int quantity) { return quantity > 0; };
  return act::state<Inventory>("Inventory")
      .patch<Restocked>("Restocked",
                        [](const Restocked& event, Inventory inventory) {
                          inventory.stock += event.quantity;
                          return inventory;
                        })
      .patch<Reserved>("Reserved",
                       [](const Reserved& event, Inventory inventory) {
                         inventory.stock -= event.quantity;
                         inventory.reserved += event.quantity;
                         return inventory;
                       })
      .on<Restock>("restock")
      .validate("quantity", [=](const Restock& action) { return positive(action.quantity); }, "must be positive")
      .emit([](const Restock& action, const Inventory&) { return Restocked{action.quantity}; })
      .on<Reserve>("reserve")
      .validate("quantity", [=](const Reserve& action) { return positive(action.quantity); }, "must be positive")
      .given([](const Inventory& inventory) { return inventory.stock > 0; }, "something is in stock")
      .retries(50, act::Backoff{std::chrono::milliseconds(1), std::chrono::milliseconds(50), true})
      .emit([](const Reserve& action, const Inventory& inventory, const act::Target& target) {
        // Checked on the state this attempt loaded: a retry re-checks on fresher state.
        if (inventory.stock - action.quantity < 0) {
          throw act::InvariantError("reserve", target.stream, "stock >= 0");
        }
        return Reserved{action.quantity, action.order};
      })
      .build();
}

}  // namespace

int main(int argc, char** argv) try {
  const auto inventory = inventory_state();
  auto app = act::app(example::connect(argc, argv, kThreads)).with(inventory).build();
  const std::string stream = "inventory-" + example::run_suffix();
  app.do_action("restock", {stream, {"warehouse", "Warehouse"}, {}}, Restock{kInitialStock});
  std::cout << "stock of " << stream << ": " << kInitialStock << "; " << kThreads << " threads reserve 1 unit "
            << kReservationsPerThread << " times each\n";

  std::atomic<int> reserved{0};
  std::atomic<int> sold_out{0};
  std::atomic<int> gave_up{0};
  std::vector<std::thread> shoppers;
  for (int t = 0; t < kThreads; ++t) {
    shoppers.emplace_back([&, t] {
      const act::Actor actor{"shop-" + std::to_string(t), "Shop " + std::to_string(t)};
      for (int i = 0; i < kReservationsPerThread; ++i) {
        const std::string order = "order-" + std::to_string(t) + "-" + std::to_string(i);
        try {
          app.do_action("reserve", {stream, actor, {}}, Reserve{1, order});
          ++reserved;
        } catch (const act::InvariantError&) {
          ++sold_out;
        } catch (const act::ConcurrencyError&) {
          ++gave_up;
        }
      }
    });
  }
  for (auto& shopper : shoppers) shopper.join();

  app.clear_cache();
  const auto final_state = app.load(inventory, stream);
  const act::AppStats stats = app.stats();
  std::cout << "reserved " << reserved << ", refused as sold out " << sold_out << ", gave up after retries " << gave_up
            << "\n"
            << "conflicts met " << stats.conflicts << ", retried after a backoff " << stats.retries
            << "; actions re-run on the database's state after a cache hit " << stats.cache_rechecks << "\n"
            << "final stock " << final_state.state.stock << ", reserved " << final_state.state.reserved
            << ", stream version " << final_state.version << "\n";
  const bool consistent = final_state.state.stock >= 0 && final_state.state.reserved == reserved.load() &&
                          final_state.state.stock + final_state.state.reserved == kInitialStock;
  std::cout << (consistent ? "consistent: no reservation lost, stock never below zero\n" : "INCONSISTENT\n");
  return consistent ? 0 : 1;
} catch (const std::exception& error) {
  std::cerr << "inventory: " << error.what() << "\n";
  return 1;
}
